// WebSocket servers (the `ws` package) on loopback, plain (ws://) and with TLS (wss://), whose
// behaviour depends on the path, so one server covers the websocket kind's cases:
//   /echo        greets "hello", then echoes each message; accepts subprotocol v1.chat if asked
//   /forbidden   refuses the upgrade with 403            /redirect   302 to /echo
//   /silent      opens and never sends                   /huge       sends one 1 MB message
//   /stream      sends "tick" messages without end       /slow-open  upgrades after 300 ms
//   /garbage     answers the upgrade with bytes that are not HTTP
// `lastHeaders()` are the request headers of the last upgrade (to see a monitor's headers arrive).
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';

export interface WsServer {
  host: string;
  port: number;
  url(path: string): string;
  lastHeaders(): http.IncomingHttpHeaders;
  close(): Promise<void>;
}

export async function startWsServer(opts: { tls?: { key: string; cert: string } } = {}): Promise<WsServer> {
  const server = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }) : http.createServer();
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has('v1.chat') ? 'v1.chat' : false),
  });
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  let headers: http.IncomingHttpHeaders = {};
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('request', (_req, res) => {
    res.writeHead(426).end();
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    headers = req.headers;
    const path = req.url ?? '/';
    const accept = () =>
      wss.handleUpgrade(req, socket, head, (ws) => {
        if (path === '/echo') {
          ws.send('hello');
          ws.on('message', (m) => ws.send(m.toString()));
        } else if (path === '/huge') ws.send(Buffer.alloc(1 << 20, 'x').toString());
        else if (path === '/stream') {
          const t = setInterval(() => ws.readyState === ws.OPEN && ws.send('tick'), 1);
          timers.add(t);
          ws.on('close', () => clearInterval(t));
        }
      });
    if (path === '/forbidden') socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    else if (path === '/redirect') socket.end('HTTP/1.1 302 Found\r\nLocation: /echo\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    else if (path === '/garbage') socket.end('\x00\xff garbage that is not HTTP \r\n\r\n');
    else if (path === '/slow-open') {
      const t = setTimeout(accept, 300);
      timers.add(t);
    } else accept();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const scheme = opts.tls ? 'wss' : 'ws';
  return {
    host: '127.0.0.1',
    port,
    url: (path) => `${scheme}://127.0.0.1:${port}${path}`,
    lastHeaders: () => headers,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const c of wss.clients) c.terminate();
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
