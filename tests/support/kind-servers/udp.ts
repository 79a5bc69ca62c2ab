// A UDP server on loopback whose answer depends on the datagram it receives, so one port serves
// every case of the udp kind's tests (and the kinds bench):
//   "echo:<text>"  answers <text>         "slow:<ms>:<text>"  answers <text> after <ms>
//   "huge"         answers 60,000 bytes   "flood"             answers 1,000 datagrams of garbage
//   anything else  no answer (silence)
// `unreachablePort()` gives a port nothing listens on (the kernel answers ICMP port unreachable).
import dgram from 'node:dgram';
import { randomBytes } from 'node:crypto';

export interface UdpServer {
  host: string;
  port: number;
  /** Datagrams received so far */
  received(): number;
  close(): Promise<void>;
}

export async function startUdpServer(host = '127.0.0.1'): Promise<UdpServer> {
  const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
  const timers = new Set<NodeJS.Timeout>();
  let count = 0;
  socket.on('message', (msg, from) => {
    count++;
    const text = msg.toString('utf8');
    const reply = (data: Buffer | string) => socket.send(data, from.port, from.address);
    if (text.startsWith('echo:')) reply(msg.subarray(5));
    else if (text.startsWith('slow:')) {
      const [, ms, rest] = /^slow:(\d+):(.*)$/s.exec(text) ?? [];
      const t = setTimeout(() => {
        timers.delete(t);
        reply(rest ?? '');
      }, Number(ms));
      timers.add(t);
    } else if (text === 'huge') reply(Buffer.alloc(60_000, 'x'));
    else if (text === 'flood') for (let i = 0; i < 1000; i++) reply(randomBytes(512));
  });
  await new Promise<void>((resolve) => socket.bind(0, host, resolve));
  return {
    host,
    port: socket.address().port,
    received: () => count,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}

/** A loopback UDP port that was free a moment ago and is not bound now. */
export async function unreachablePort(host = '127.0.0.1'): Promise<number> {
  const s = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
  await new Promise<void>((resolve) => s.bind(0, host, resolve));
  const { port } = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
