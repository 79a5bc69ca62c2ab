// Loopback target for the engine benchmark, in its own process so its CPU is not the engine's.
// With an argument N it listens on 127.0.0.2 … 127.0.0.(N+1) (all of 127/8 is local on Linux),
// so hundreds of new connections a second spread their TIME_WAIT sockets over several
// address pairs instead of exhausting one pair's ephemeral ports. Prints the "host:port" list.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const count = Number(process.argv[2] ?? 0);
const hosts = count > 0 ? Array.from({ length: count }, (_, i) => `127.0.0.${i + 2}`) : ['127.0.0.1'];
const servers = hosts.map(() => {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
  });
  server.keepAliveTimeout = 1000;
  return server;
});
const listening = await Promise.all(
  servers.map(
    (s, i) =>
      new Promise<string>((resolve) =>
        // The kernel's own bound (somaxconn, 4,096 here), not Node's 511: 1,667 new connections a
        // second from probes on the same two cores fill 511 within a third of a second of this
        // process waiting for a core, and every dropped SYN is a check that times out after 10 s.
        s.listen({ port: 0, host: hosts[i], backlog: 4096 }, () => resolve(`${hosts[i]}:${(s.address() as AddressInfo).port}`)),
      ),
  ),
);
process.stdout.write(`${listening.join(' ')}\n`);
process.on('SIGTERM', () => {
  for (const s of servers) s.close();
  process.exit(0);
});
