// The two messages of the standard gRPC health protocol (grpc/grpc-proto, grpc/health/v1/
// health.proto), encoded by hand: each holds one field, so a protobuf library and a .proto file
// loaded at run time would be more code than this, and hand-reading lets a garbage answer fail
// as "unreadable" instead of whatever a generic decoder makes of it.
//   message HealthCheckRequest { string service = 1; }
//   message HealthCheckResponse { ServingStatus status = 1; }  // UNKNOWN 0, SERVING 1, NOT_SERVING 2, SERVICE_UNKNOWN 3

export const HEALTH_CHECK_METHOD = '/grpc.health.v1.Health/Check';
export const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;
export type ServingStatus = (typeof SERVING_STATUS)[number];

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

export function encodeHealthRequest(service: string): Buffer {
  const name = Buffer.from(service, 'utf8');
  // proto3 leaves an empty string out: the empty message asks about the whole server.
  return name.length ? Buffer.concat([Buffer.from([0x0a, ...varint(name.length)]), name]) : Buffer.alloc(0);
}

export class UnreadableHealthAnswer extends Error {}

function readVarint(buf: Buffer, at: number): [number, number] {
  let value = 0;
  for (let shift = 0, i = at; i < buf.length && shift < 35; shift += 7, i++) {
    value += (buf[i] & 0x7f) * 2 ** shift;
    if (!(buf[i] & 0x80)) return [value, i + 1];
  }
  throw new UnreadableHealthAnswer('bad varint');
}

/** The status in a HealthCheckResponse; unknown fields are skipped, as protobuf readers must. */
export function decodeHealthResponse(buf: Buffer): ServingStatus | number {
  let status = 0; // proto3: a missing enum field is its zero value, UNKNOWN
  let at = 0;
  while (at < buf.length) {
    const [key, next] = readVarint(buf, at);
    const [field, wire] = [Math.floor(key / 8), key & 7];
    at = next;
    if (field === 0) throw new UnreadableHealthAnswer('field 0');
    if (wire === 0) [status, at] = field === 1 ? readVarint(buf, at) : [status, readVarint(buf, at)[1]];
    else if (wire === 2) {
      const [len, start] = readVarint(buf, at);
      at = start + len;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new UnreadableHealthAnswer('wire type');
    if (at > buf.length) throw new UnreadableHealthAnswer('truncated');
  }
  return SERVING_STATUS[status] ?? status;
}
