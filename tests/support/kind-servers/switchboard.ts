// A loopback HTTP server whose paths the test switches up or down one by one: GET /<name>
// answers 200 while `down` does not hold the name, 503 while it does. Groups and dependencies
// tests point their monitors at separate paths to fail a parent, some children, or all of them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Switchboard {
  host: string;
  port: number;
  url(name: string): string;
  /** Names answering 503 */
  down: Set<string>;
  close(): Promise<void>;
}

export async function startSwitchboard(): Promise<Switchboard> {
  const down = new Set<string>();
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1));
    if (down.has(name)) return void res.writeHead(503).end('down');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('up');
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    url: (name) => `http://127.0.0.1:${port}/${encodeURIComponent(name)}`,
    down,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
