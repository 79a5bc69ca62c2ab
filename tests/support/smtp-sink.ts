// A real SMTP server on loopback that keeps every message it receives (password-reset mail
// today; notification delivery later).
import { SMTPServer } from 'smtp-server';

export interface Mail {
  to: string[];
  raw: string;
  /** Date.now() when the sink accepted it */
  at: number;
}
export interface SmtpSink {
  url: string;
  mails: Mail[];
  close(): Promise<void>;
}

/** `mails` may be an array the caller already shares with its tests. */
export async function startSmtpSink(mails: Mail[] = []): Promise<SmtpSink> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}
