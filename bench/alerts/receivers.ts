// Loopback side of the alerts benchmark, in its own process so its CPU is not the server's: the
// monitors' target (/l/<i> flips between up and down every FLIP_MS, /s/<i> is up until "storm" is
// read on stdin, then down), a webhook receiver, a Slack-like receiver and an SMTP sink. Prints
// one JSON line first ({ target, webhook, slack, smtp }) then one per message received:
// { kind, id, at } (id: the webhook-id, the Message-ID's local part, or '' for Slack).
import http from 'node:http';
import { SMTPServer } from 'smtp-server';

// Down and up for 25 s each: one company's alerts of one event are 50 s apart, longer than the
// grouping window, so phase 1 measures alerts that go alone (not held as part of a burst).
const FLIP_MS = 25_000;
let storm = false;
process.stdin.on('data', (d: Buffer) => {
  if (String(d).includes('storm')) storm = true;
});

const emit = (kind: string, id: string) => process.stdout.write(`${JSON.stringify({ kind, id, at: Date.now() })}\n`);

function listen(server: http.Server | SMTPServer['server']): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

const target = http.createServer((req, res) => {
  const [, group, n] = (req.url ?? '').split('/');
  const i = Number(n);
  const down = group === 's' ? storm : Math.floor((Date.now() + i * 997) / FLIP_MS) % 2 === 1;
  res.writeHead(down ? 503 : 200, { 'content-type': 'text/plain', 'content-length': '2' });
  res.end('ok');
});
target.keepAliveTimeout = 1000;

const receiver = (kind: string) =>
  http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      emit(kind, String(req.headers['webhook-id'] ?? ''));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, cb) {
    let head = '';
    stream.on('data', (c: Buffer) => {
      if (head.length < 4000) head += c.toString('utf8');
    });
    stream.on('end', () => {
      emit('smtp', /Message-ID: <([^@>]+)@/i.exec(head)?.[1] ?? '');
      cb();
    });
  },
});

const [t, w, s, m] = await Promise.all([listen(target), listen(receiver('webhook')), listen(receiver('slack')), listen(smtp.server)]);
process.stdout.write(`${JSON.stringify({ target: t, webhook: w, slack: s, smtp: m })}\n`);
process.on('SIGTERM', () => process.exit(0));
