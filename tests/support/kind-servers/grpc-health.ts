// A real @grpc/grpc-js server on loopback serving grpc.health.v1.Health/Check, plaintext or TLS,
// whose answer depends on the service asked, so one server covers the grpc kind's cases:
//   ""           SERVING                     "down"      NOT_SERVING
//   "unknown"    UNKNOWN (status 0)          "missing"   NOT_FOUND (no such service)
//   "hang"       never answers               "slow"      SERVING after 300 ms
//   "garbage"    bytes that are no protobuf  "huge"      a 1 MB answer
//   "secured"    SERVING with `authorization: Bearer letmein` metadata, UNAUTHENTICATED without
import * as grpc from '@grpc/grpc-js';

export interface GrpcHealthServer {
  host: string;
  port: number;
  close(): Promise<void>;
}

const status = (n: number) => Buffer.from([0x08, n]);

export async function startGrpcHealthServer(opts: { host?: string; tls?: { key: string; cert: string } } = {}): Promise<GrpcHealthServer> {
  const host = opts.host ?? '127.0.0.1';
  const server = new grpc.Server();
  const pending = new Set<NodeJS.Timeout>();
  server.register<Buffer, Buffer>(
    '/grpc.health.v1.Health/Check',
    ((call: grpc.ServerUnaryCall<Buffer, Buffer>, reply: grpc.sendUnaryData<Buffer>) => {
      // The request is `0a <len> <service>`; parsed loosely, as a test server may.
      const req = call.request;
      const service = req.length > 2 ? req.subarray(2).toString('utf8') : '';
      switch (service) {
        case '':
          return reply(null, status(1));
        case 'down':
          return reply(null, status(2));
        case 'unknown':
          return reply(null, status(0));
        case 'missing':
          return reply({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
        case 'hang':
          return;
        case 'slow': {
          const t = setTimeout(() => reply(null, status(1)), 300);
          pending.add(t);
          return;
        }
        case 'garbage':
          return reply(null, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]));
        case 'huge':
          return reply(null, Buffer.concat([status(1), Buffer.from([0x12, 0x80, 0x80, 0x40]), Buffer.alloc(1 << 20)]));
        case 'secured':
          return call.metadata.get('authorization')[0] === 'Bearer letmein'
            ? reply(null, status(1))
            : reply({ code: grpc.status.UNAUTHENTICATED, details: 'no token' });
        default:
          return reply({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
      }
    }) as grpc.handleUnaryCall<Buffer, Buffer>,
    (b: Buffer) => b,
    (b: Buffer) => b,
    'unary',
  );
  const creds = opts.tls
    ? grpc.ServerCredentials.createSsl(null, [{ private_key: Buffer.from(opts.tls.key), cert_chain: Buffer.from(opts.tls.cert) }])
    : grpc.ServerCredentials.createInsecure();
  const bindHost = host.includes(':') ? `[${host}]` : host;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${bindHost}:0`, creds, (e, p) => (e ? reject(e) : resolve(p))),
  );
  return {
    host,
    port,
    close: async () => {
      for (const t of pending) clearTimeout(t);
      server.forceShutdown();
    },
  };
}
