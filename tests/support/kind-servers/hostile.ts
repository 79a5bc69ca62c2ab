// A hostile TCP server on loopback for the mail and database kinds: whatever protocol the client
// speaks, it answers with garbage, a line that never ends, far too much data, or nothing at all.
import net from 'node:net';

export type HostileMode =
  /** a line of text that is no protocol's greeting or answer, on connect and to every request */
  | 'garbage'
  /** accepts and never sends a byte */
  | 'silent'
  /** sends without end (a line with no end, megabytes of it) */
  | 'endless'
  /** one huge line (2 MB) then silence */
  | 'huge';

export interface HostileServer {
  host: string;
  port: number;
  close(): Promise<void>;
}

/** `first`: sent before the endless data, so the client takes it for its protocol's answer. */
export async function startHostileServer(mode: HostileMode, opts: { first?: Buffer } = {}): Promise<HostileServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (mode === 'garbage') {
      socket.write('\u0000\u00ff hello? this is not the protocol you are looking for\r\n');
      socket.on('data', () => socket.write('%%%% garbage %%%%\r\n'));
    }
    if (mode === 'huge') socket.write(`${'A'.repeat(2 * 1024 * 1024)}`);
    if (mode === 'endless') {
      if (opts.first) socket.write(opts.first);
      const chunk = Buffer.alloc(64 * 1024, 'A');
      const pump = () => {
        while (!socket.destroyed && socket.write(chunk));
      };
      socket.on('drain', pump);
      pump();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: '127.0.0.1',
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
