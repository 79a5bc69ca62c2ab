// Mail servers on loopback for the smtp, imap and pop3 kinds' tests (and bench/kinds): SMTP by
// the smtp-server package, IMAP and POP3 as small line servers speaking just what a check says
// (greeting, CAPABILITY, STARTTLS/STLS, LOGIN or USER/PASS, LOGOUT/QUIT). Each with TLS none,
// STARTTLS or implicit, a certificate given by the test, and one account.
import net from 'node:net';
import tls from 'node:tls';
import { SMTPServer } from 'smtp-server';

export type MailTlsMode = 'none' | 'starttls' | 'implicit';

export interface MailServerOptions {
  tls: MailTlsMode;
  /** PEM key and certificate (tests/fixtures/targets/tls-targets.ts makeCerts) */
  cert: { key: string; cert: string };
  user: string;
  password: string;
}

export interface MailServer {
  host: string;
  port: number;
  close(): Promise<void>;
}

async function listen(server: net.Server, sockets: Set<net.Socket>): Promise<MailServer> {
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
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

export async function startSmtpServer(o: MailServerOptions): Promise<MailServer & { logins: number }> {
  const state = { logins: 0 };
  const server = new SMTPServer({
    secure: o.tls === 'implicit',
    key: o.cert.key,
    cert: o.cert.cert,
    hideSTARTTLS: o.tls !== 'starttls',
    allowInsecureAuth: true,
    authOptional: true,
    authMethods: ['PLAIN', 'LOGIN'],
    banner: 'statuswatch test SMTP',
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === o.user && auth.password === o.password) {
        state.logins++;
        return callback(null, { user: auth.username });
      }
      return callback(new Error('Invalid username or password'));
    },
  });
  server.on('error', () => undefined);
  const sockets = new Set<net.Socket>();
  server.server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as net.AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    get logins() {
      return state.logins;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

type Reply = (line: string, upgrade: () => void) => string | null;

/** A line server: `greeting` on connect, `reply` to each line (null: close), STARTTLS by `upgrade`. */
async function startLineServer(o: MailServerOptions, greeting: string, reply: Reply): Promise<MailServer> {
  const sockets = new Set<net.Socket>();
  const serve = (socket: net.Socket) => {
    let buf = '';
    let upgraded = false;
    let current: net.Socket = socket;
    const onData = (chunk: Buffer) => {
      buf += chunk.toString('latin1');
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).replace(/\r$/, '');
        buf = buf.slice(i + 1);
        let startTls = false;
        const out = reply(line, () => {
          startTls = true;
        });
        if (out === null) {
          current.end();
          return;
        }
        current.write(out);
        if (startTls && !upgraded) {
          upgraded = true;
          current.off('data', onData);
          const secure = new tls.TLSSocket(current, { isServer: true, key: o.cert.key, cert: o.cert.cert });
          secure.on('error', () => undefined);
          secure.on('data', onData);
          current = secure;
          return;
        }
      }
    };
    socket.on('error', () => undefined);
    socket.on('data', onData);
    socket.write(`${greeting}\r\n`);
  };
  const server = o.tls === 'implicit' ? tls.createServer({ key: o.cert.key, cert: o.cert.cert }, serve) : net.createServer(serve);
  server.on('tlsClientError', () => undefined);
  return listen(server, sockets);
}

const unquote = (s: string) => s.replace(/^"(.*)"$/, '$1').replace(/\\(.)/g, '$1');

export function startImapServer(o: MailServerOptions): Promise<MailServer> {
  return startLineServer(o, '* OK [CAPABILITY IMAP4rev1] statuswatch test IMAP ready', (line, upgrade) => {
    const [tag, cmd = '', ...rest] = line.split(' ');
    switch (cmd.toUpperCase()) {
      case 'CAPABILITY':
        return `* CAPABILITY IMAP4rev1${o.tls === 'starttls' ? ' STARTTLS' : ''}\r\n${tag} OK done\r\n`;
      case 'STARTTLS':
        if (o.tls !== 'starttls') return `${tag} BAD STARTTLS not available\r\n`;
        upgrade();
        return `${tag} OK Begin TLS negotiation now\r\n`;
      case 'LOGIN': {
        const m = rest.join(' ').match(/^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/);
        const ok = m && unquote(m[1]) === o.user && unquote(m[2]) === o.password;
        return ok ? `${tag} OK LOGIN completed\r\n` : `${tag} NO [AUTHENTICATIONFAILED] Invalid credentials\r\n`;
      }
      case 'LOGOUT':
        return `* BYE logging out\r\n${tag} OK LOGOUT completed\r\n`;
      default:
        return `${tag} BAD unknown command\r\n`;
    }
  });
}

export function startPop3Server(o: MailServerOptions): Promise<MailServer> {
  let user = '';
  return startLineServer(o, '+OK statuswatch test POP3 ready', (line, upgrade) => {
    const [cmd = '', ...rest] = line.split(' ');
    const arg = rest.join(' ');
    switch (cmd.toUpperCase()) {
      case 'STLS':
        if (o.tls !== 'starttls') return '-ERR STLS not available\r\n';
        upgrade();
        return '+OK Begin TLS negotiation\r\n';
      case 'USER':
        user = arg;
        return '+OK\r\n';
      case 'PASS':
        return user === o.user && arg === o.password ? '+OK logged in\r\n' : '-ERR [AUTH] Authentication failed\r\n';
      case 'QUIT':
        return '+OK bye\r\n';
      default:
        return '-ERR unknown command\r\n';
    }
  });
}

/** A server that greets with `line` (a refusal such as "554 no service") and then says nothing. */
export function startGreetingServer(line: string): Promise<MailServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.write(`${line}\r\n`);
  });
  return listen(server, sockets);
}
