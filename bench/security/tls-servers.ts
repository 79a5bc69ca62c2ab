// The TLS benchmark's targets, in a child process so their CPU is not counted against the
// analysis: `count` loopback HTTPS servers, most with a good certificate, every tenth with the
// weak one (TLS 1.0-1.2, RSA-1024, SHA-1: more handshakes succeed). Prints one JSON line
// { ports, caPem } and serves until stdin closes.
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { makeCerts } from '../../tests/fixtures/targets/tls-targets.ts';

const count = Number(process.argv[2] ?? '100');
const { ca, certs } = makeCerts();
const servers: https.Server[] = [];
for (let i = 0; i < count; i++) {
  const weak = i % 10 === 9;
  const options: https.ServerOptions = weak
    ? { ...certs.weak, minVersion: 'TLSv1', maxVersion: 'TLSv1.2', ciphers: 'DEFAULT:@SECLEVEL=0' }
    : { ...certs.good, minVersion: 'TLSv1.2' };
  const s = https.createServer(options, (_req, res) => {
    res.setHeader('strict-transport-security', 'max-age=31536000');
    res.end('ok');
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  servers.push(s);
}
process.stdout.write(JSON.stringify({ ports: servers.map((s) => (s.address() as AddressInfo).port), caPem: ca }) + '\n');
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
