// Redis checks: connect (TLS for rediss://), AUTH when a password is stored (with the URL's user
// name for an ACL user), then PING, expecting PONG. RESP is two lines of text here, read with the
// bounded line reader: no client library and its reconnect and queueing logic for one round trip.
import { DEFAULT_REDIS_PORT } from '../../../lib/monitor-kinds.ts';
import { resolveSafe, TargetRefused } from '../../net/ssrf.ts';
import { networkErrorText } from '../../net/error-text.ts';
import { dbUrlParts } from '../kinds/db-url.ts';
import { answered } from './db-common.ts';
import { LineReader, ProtocolError, shownLine } from './line-reader.ts';
import { connectTcp, startTls } from './socket-session.ts';
import { failed, round, type Checker, type Timings } from './types.ts';

/** What a redis monitor stores (engine/kinds/redis.ts validates it); `password` sealed at rest. */
export interface RedisConfig {
  url?: string;
  password?: string | null;
  degraded_threshold_ms?: number | null;
}

const NOT_REDIS = 'The server did not answer like Redis';

/** A RESP command as an array of bulk strings (a password may hold any byte but CR/LF are fine here too). */
function command(...args: string[]): string {
  return `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
}

/** The server's error reply as a sentence of ours (its text is not shown: it may echo input). */
function redisError(line: string): string {
  const code = line.slice(1).split(' ')[0];
  if (code === 'WRONGPASS' || /invalid (username-)?password/i.test(line)) return 'Login failed: wrong user name or password';
  if (code === 'NOAUTH') return 'The server requires a password';
  if (/AUTH.*without any password configured|no password is set/i.test(line))
    return 'The server has no password set: leave the password empty';
  if (code === 'LOADING') return 'The server is loading its data set';
  if (code === 'BUSY') return 'The server is busy running a script';
  if (code === 'MASTERDOWN') return 'The server lost its link to the primary';
  if (code === 'NOPERM') return 'The user may not run PING';
  return `The server answered an error (${shownLine(code).slice(0, 30)})`;
}

export const redisChecker: Checker<RedisConfig> = async (target, env, signal) => {
  const started = performance.now();
  const cfg = target.config;
  const parts = dbUrlParts(cfg.url, DEFAULT_REDIS_PORT);
  if (!parts) return failed('URL is not valid');
  const { url, host, port } = parts;
  const timings: Timings = { total: 0 };
  const since = () => round(performance.now() - started);
  let socket: import('node:net').Socket | null = null;
  try {
    const { address } = await resolveSafe(host, env.allowPrivateTargets, env.resolve, signal);
    timings.dns = since();
    socket = await connectTcp(address, port, signal);
    timings.connect = round(since() - timings.dns);
    let peer;
    if (url.protocol === 'rediss:') {
      const secured = await startTls(socket, host, env, signal);
      socket = secured.socket;
      peer = secured.peer;
      timings.tls = round(since() - timings.dns - timings.connect);
      if (secured.problem) return { ...answered({ ...timings, total: since() }, secured.problem, null, peer), status: 'down' };
    }
    const reader = new LineReader(socket);
    const s = socket;
    signal.addEventListener('abort', () => s.destroy(), { once: true });
    const user = decodeURIComponent(url.username);
    if (cfg.password) {
      s.write(user ? command('AUTH', user, cfg.password) : command('AUTH', cfg.password));
      const auth = await reader.next();
      if (auth.startsWith('-')) return failed(redisError(auth), { ...timings, total: since() });
      if (auth !== '+OK') return failed(NOT_REDIS, { ...timings, total: since() });
    }
    const before = since();
    s.write(command('PING'));
    const pong = await reader.next();
    timings.total = since();
    timings.ttfb = round(timings.total - before);
    if (pong.startsWith('-')) return failed(redisError(pong), timings);
    if (pong !== '+PONG') return failed(NOT_REDIS, timings);
    return answered(timings, null, cfg.degraded_threshold_ms, peer);
  } catch (e) {
    const t = { ...timings, total: since() };
    if (signal.aborted) return failed(`Timed out after ${target.timeoutMs / 1000} s`, t);
    if (e instanceof TargetRefused || e instanceof ProtocolError) return failed(e.message, t);
    return failed(networkErrorText(e), t);
  } finally {
    socket?.destroy();
  }
};
