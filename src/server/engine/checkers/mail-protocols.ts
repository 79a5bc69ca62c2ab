// The three mail protocols as the mail checker (mail.ts) speaks them: the greeting, the STARTTLS
// command, a login and goodbye. Each answer is judged by its code only; the server's text is not
// shown (beyond a code), so a check result never echoes what a server chose to say.
import { Buffer } from 'node:buffer';
import type { LineReader } from './line-reader.ts';

export class MailRefusal extends Error {}

export interface MailSession {
  reader: LineReader;
  write(line: string): void;
}

export interface MailProtocol {
  name: string;
  /** Reads the greeting and answers its text (the code left out); throws a MailRefusal when it is not a welcome. */
  greet(s: MailSession): Promise<string>;
  /** Asks to start TLS; after it resolves the next bytes are the TLS handshake. */
  startTls(s: MailSession): Promise<void>;
  /** After TLS (or with none): what the server offers again, where the protocol asks for it. */
  hello?(s: MailSession): Promise<void>;
  login(s: MailSession, user: string, password: string): Promise<void>;
  quit(s: MailSession): void;
}

export const WRONG_LOGIN = 'Login failed: wrong user name or password';
const notThe = (name: string) => new MailRefusal(`The server did not answer like ${name}`);

/** One SMTP reply (its lines, "250-…" continued up to "250 …"): its code and lines. */
async function smtpReply(s: MailSession): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  for (;;) {
    const line = await s.reader.next();
    if (!/^\d{3}([ -]|$)/.test(line)) throw notThe('SMTP');
    lines.push(line.slice(4));
    if (line[3] !== '-') return { code: Number(line.slice(0, 3)), lines };
    if (lines.length > 100) throw notThe('SMTP');
  }
}

// What EHLO offered, per session (asked again after STARTTLS, as RFC 3207 requires).
const ehloCapabilities = new WeakMap<MailSession, string[]>();

export const SMTP: MailProtocol = {
  name: 'SMTP',
  async greet(s) {
    const r = await smtpReply(s);
    if (r.code !== 220) throw new MailRefusal(`The server greeted with ${r.code} instead of 220 (it refuses mail now)`);
    return r.lines.join(' ');
  },
  async hello(s) {
    s.write('EHLO statuswatch.invalid');
    const r = await smtpReply(s);
    if (r.code !== 250) throw new MailRefusal(`The server answered EHLO with ${r.code} instead of 250`);
    ehloCapabilities.set(
      s,
      r.lines.map((l) => l.toUpperCase()),
    );
  },
  async startTls(s) {
    if (!(ehloCapabilities.get(s) ?? []).some((c) => c === 'STARTTLS')) throw new MailRefusal('The server does not offer STARTTLS');
    s.write('STARTTLS');
    const r = await smtpReply(s);
    if (r.code !== 220) throw new MailRefusal(`The server answered STARTTLS with ${r.code} instead of 220`);
  },
  async login(s, user, password) {
    const auth = (ehloCapabilities.get(s) ?? []).find((c) => c.startsWith('AUTH'));
    if (!auth) throw new MailRefusal('The server offers no login (AUTH) on this connection');
    s.write(`AUTH PLAIN ${Buffer.from(`\u0000${user}\u0000${password}`).toString('base64')}`);
    const r = await smtpReply(s);
    if (r.code === 535 || r.code === 534) throw new MailRefusal(WRONG_LOGIN);
    if (r.code !== 235) throw new MailRefusal(`The server answered the login with ${r.code} instead of 235`);
  },
  quit(s) {
    s.write('QUIT');
  },
};

/** IMAP's quoted string: backslash and quote escaped (RFC 3501); CR/LF cannot be sent this way. */
const quoted = (v: string) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** The tagged answer of an IMAP command, untagged lines skipped. */
async function imapTagged(s: MailSession, tag: string): Promise<string> {
  for (let n = 0; n < 1000; n++) {
    const line = await s.reader.next();
    if (line.startsWith(`${tag} `))
      return line
        .slice(tag.length + 1)
        .split(' ')[0]
        .toUpperCase();
    if (!line.startsWith('* ') && !line.startsWith('+')) throw notThe('IMAP');
  }
  throw notThe('IMAP');
}

export const IMAP: MailProtocol = {
  name: 'IMAP',
  async greet(s) {
    const line = await s.reader.next();
    if (/^\* BYE\b/i.test(line)) throw new MailRefusal('The server greeted with BYE (it refuses connections now)');
    if (!/^\* (OK|PREAUTH)\b/i.test(line)) throw notThe('IMAP');
    return line.replace(/^\* \S+\s*/, '');
  },
  async startTls(s) {
    s.write('a1 STARTTLS');
    const r = await imapTagged(s, 'a1');
    if (r !== 'OK') throw new MailRefusal('The server does not offer STARTTLS');
  },
  async login(s, user, password) {
    if (/[\r\n]/.test(user + password)) throw new MailRefusal('The user name or password holds a line break');
    s.write(`a2 LOGIN ${quoted(user)} ${quoted(password)}`);
    const r = await imapTagged(s, 'a2');
    if (r === 'NO') throw new MailRefusal(WRONG_LOGIN);
    if (r !== 'OK') throw new MailRefusal(`The server answered the login with ${r === 'BAD' ? 'BAD' : 'an unknown answer'}`);
  },
  quit(s) {
    s.write('a3 LOGOUT');
  },
};

async function popOk(s: MailSession): Promise<boolean> {
  const line = await s.reader.next();
  if (/^\+OK\b/i.test(line)) return true;
  if (/^-ERR\b/i.test(line)) return false;
  throw notThe('POP3');
}

export const POP3: MailProtocol = {
  name: 'POP3',
  async greet(s) {
    const line = await s.reader.next();
    if (/^-ERR\b/i.test(line)) throw new MailRefusal('The server greeted with -ERR (it refuses connections now)');
    if (!/^\+OK\b/i.test(line)) throw notThe('POP3');
    return line.slice(3).trim();
  },
  async startTls(s) {
    s.write('STLS');
    if (!(await popOk(s))) throw new MailRefusal('The server does not offer STARTTLS (STLS)');
  },
  async login(s, user, password) {
    if (/[\r\n]/.test(user + password)) throw new MailRefusal('The user name or password holds a line break');
    s.write(`USER ${user}`);
    if (!(await popOk(s))) throw new MailRefusal(WRONG_LOGIN);
    s.write(`PASS ${password}`);
    if (!(await popOk(s))) throw new MailRefusal(WRONG_LOGIN);
  },
  quit(s) {
    s.write('QUIT');
  },
};

export const MAIL_PROTOCOLS = { smtp: SMTP, imap: IMAP, pop3: POP3 } as const;
