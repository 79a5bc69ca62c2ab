// A minimal DNS client over UDP for the one question Node's resolver cannot ask: DS records
// (and the AD flag) for DNSSEC status. c-ares in Node resolves A…TXT/CAA but neither DS nor
// DNSKEY, and it hides the header flags. One question, EDNS0 with the DO bit, answer types and
// flags read; nothing else of the message is interpreted.
import dgram from 'node:dgram';
import { randomInt } from 'node:crypto';
import { isIPv6 } from 'node:net';

export interface WireAnswer {
  rcode: number;
  /** Authenticated Data: the resolver validated the answer's DNSSEC signatures */
  ad: boolean;
  /** RR type codes of the answer section */
  answerTypes: number[];
}

export const TYPE_DS = 43;

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([...labels.map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0])]);
}

function skipName(msg: Buffer, i: number): number {
  while (i < msg.length) {
    const len = msg[i];
    if (len === 0) return i + 1;
    if ((len & 0xc0) === 0xc0) return i + 2;
    i += len + 1;
  }
  throw new Error('truncated name');
}

/** Reads a response to `id`: rcode, AD flag, and the answers' types. */
export function readAnswer(msg: Buffer, id: number): WireAnswer {
  if (msg.length < 12 || msg.readUInt16BE(0) !== id) throw new Error('unexpected DNS response');
  const flags = msg.readUInt16BE(2);
  const qd = msg.readUInt16BE(4);
  const an = msg.readUInt16BE(6);
  let i = 12;
  for (let n = 0; n < qd; n++) i = skipName(msg, i) + 4;
  const answerTypes: number[] = [];
  for (let n = 0; n < an; n++) {
    i = skipName(msg, i);
    answerTypes.push(msg.readUInt16BE(i));
    i += 10 + msg.readUInt16BE(i + 8);
  }
  return { rcode: flags & 0x0f, ad: (flags & 0x0020) !== 0, answerTypes };
}

/** "1.1.1.1", "10.0.0.2:5353", "[2606:4700::1111]:53" → address and port. */
export function parseServer(server: string): { address: string; port: number } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
  if (v6) return { address: v6[1], port: Number(v6[2] ?? 53) };
  if (isIPv6(server)) return { address: server, port: 53 };
  const [address, port] = server.split(':');
  return { address, port: Number(port ?? 53) };
}

/** Asks `server` one question (recursion desired, DO bit set); rejects after `timeoutMs` or on abort. */
export function queryWire(server: string, name: string, type: number, timeoutMs: number, signal?: AbortSignal): Promise<WireAnswer> {
  const { address, port } = parseServer(server);
  const id = randomInt(0, 65536);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x0100, 2); // RD
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(1, 10); // one additional record: the OPT
  const q = Buffer.alloc(4);
  q.writeUInt16BE(type, 0);
  q.writeUInt16BE(1, 2);
  // OPT: root owner, type 41, 1232-byte payload, extended flags with DO (0x8000)
  const opt = Buffer.from([0, 0, 41, 0x04, 0xd0, 0, 0, 0x80, 0, 0, 0]);
  const packet = Buffer.concat([header, encodeName(name), q, opt]);
  const socket = dgram.createSocket(isIPv6(address) ? 'udp6' : 'udp4');
  return new Promise<WireAnswer>((resolve, reject) => {
    const done = (err: Error | null, answer?: WireAnswer) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      socket.close();
      if (err) reject(err);
      else resolve(answer!);
    };
    const abort = () => done(Object.assign(new Error('DNS query cancelled'), { code: 'ECANCELLED' }));
    const timer = setTimeout(() => done(Object.assign(new Error('DNS query timed out'), { code: 'ETIMEOUT' })), timeoutMs);
    signal?.addEventListener('abort', abort, { once: true });
    socket.on('error', (e) => done(e));
    socket.on('message', (msg) => {
      try {
        done(null, readAnswer(msg, id));
      } catch {
        // another packet on the port: keep waiting for ours until the timer ends it
      }
    });
    socket.send(packet, port, address);
  });
}
