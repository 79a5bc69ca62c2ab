// UDP checks: one datagram to host:port (the address the SSRF guard accepted), then the first
// answer is judged: it must contain `udp_expect`, or, with `udp_expect_silence`, no answer may
// come before the time-out. The socket is connected, so the kernel reports an ICMP port
// unreachable as a refusal: a closed port is down even when silence is expected.
import dgram from 'node:dgram';
import { DEFAULT_UDP_PAYLOAD_FORMAT } from '../../../lib/monitor-kinds.ts';
import { networkErrorText } from '../../net/error-text.ts';
import { resolveSafe, TargetRefused } from '../../net/ssrf.ts';
import { failed, round, type Checker, type CheckOutcome } from './types.ts';

/** What a udp monitor stores (engine/kinds/udp.ts validates it). */
export interface UdpConfig {
  host?: string;
  port?: number;
  udp_payload?: string | null;
  udp_payload_format?: 'text' | 'hex';
  udp_expect?: string | null;
  udp_expect_silence?: boolean;
  degraded_threshold_ms?: number | null;
}

/** The bytes a text or hex field stands for (hex may be spaced: "de ad be ef"). */
export function udpBytes(value: string, format: 'text' | 'hex'): Buffer {
  return format === 'hex' ? Buffer.from(value.replace(/\s+/g, ''), 'hex') : Buffer.from(value, 'utf8');
}

type Answer = { kind: 'answer'; data: Buffer; at: number } | { kind: 'silence' } | { kind: 'unsent' } | { kind: 'error'; error: unknown };

/** The first datagram back, the silence until the deadline, or the socket's error (port unreachable). */
function exchange(family: 4 | 6, address: string, port: number, payload: Buffer, signal: AbortSignal, started: number) {
  return new Promise<Answer & { connectedAt: number }>((resolve) => {
    const socket = dgram.createSocket({ type: family === 6 ? 'udp6' : 'udp4' });
    let connectedAt = 0;
    let finished = false;
    const done = (a: Answer) => {
      // Once: a send error after the deadline must not close the socket twice (that throws).
      if (finished) return;
      finished = true;
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners('message');
      socket.on('error', () => {});
      socket.close();
      resolve({ ...a, connectedAt });
    };
    let sent = false;
    // The deadline is silence only once the datagram went out; before that the check timed out.
    const onAbort = () => done(sent ? { kind: 'silence' } : { kind: 'unsent' });
    if (signal.aborted) return done({ kind: 'unsent' });
    signal.addEventListener('abort', onAbort, { once: true });
    // Only the first datagram is read: a target that floods answers costs one message.
    socket.once('message', (data) => done({ kind: 'answer', data, at: performance.now() }));
    socket.once('error', (error) => done({ kind: 'error', error }));
    socket.connect(port, address, () => {
      connectedAt = round(performance.now() - started);
      socket.send(payload, (error) => {
        if (error) done({ kind: 'error', error });
        else sent = true;
      });
    });
  });
}

export const udpChecker: Checker<UdpConfig> = async (target, env, signal) => {
  const started = performance.now();
  const cfg = target.config;
  const format = cfg.udp_payload_format ?? DEFAULT_UDP_PAYLOAD_FORMAT;
  const seconds = target.timeoutMs / 1000;
  let dns = 0;
  try {
    const { address, family } = await resolveSafe(cfg.host ?? '', env.allowPrivateTargets, env.resolve, signal);
    dns = round(performance.now() - started);
    const answer = await exchange(family, address, cfg.port ?? 0, udpBytes(cfg.udp_payload ?? '', format), signal, started);
    const total = round(performance.now() - started);
    const timings = { dns, connect: round(answer.connectedAt - dns), total };
    if (answer.kind === 'error') {
      const code = (answer.error as NodeJS.ErrnoException).code;
      // A connected UDP socket's ECONNREFUSED is the ICMP port unreachable the host sent back.
      return failed(
        code === 'ECONNREFUSED' ? 'Port unreachable: nothing listens on this UDP port' : networkErrorText(answer.error),
        timings,
      );
    }
    if (answer.kind === 'unsent') return failed(`Timed out after ${seconds} s`, timings);
    if (answer.kind === 'silence') {
      if (cfg.udp_expect_silence)
        return { status: 'operational', responseTimeMs: null, httpCode: null, error: null, timings, certExpiresAt: null };
      return failed(`No answer within ${seconds} s`, timings);
    }
    const ttfb = round(answer.at - started);
    const answered = { ...timings, ttfb, total: ttfb };
    if (cfg.udp_expect_silence) return failed('An answer came back where silence was expected', answered);
    return judgeAnswer(answer.data, cfg, format, ttfb, answered);
  } catch (e) {
    const timings = { dns, total: round(performance.now() - started) };
    if (signal.aborted) return failed(`Timed out after ${seconds} s`, timings);
    if (e instanceof TargetRefused) return failed(e.message, timings);
    return failed(networkErrorText(e), timings);
  }
};

function judgeAnswer(data: Buffer, cfg: UdpConfig, format: 'text' | 'hex', ms: number, timings: CheckOutcome['timings']): CheckOutcome {
  const base = { responseTimeMs: ms, httpCode: null, timings, certExpiresAt: null };
  if (cfg.udp_expect && !data.includes(udpBytes(cfg.udp_expect, format)))
    // Never the answer itself: a check result is our sentence, not the target's bytes.
    return {
      ...base,
      status: 'down',
      error: `The answer (${data.length} bytes) did not contain the expected ${format === 'hex' ? 'bytes' : 'text'}`,
    };
  if (cfg.degraded_threshold_ms && ms > cfg.degraded_threshold_ms)
    return { ...base, status: 'degraded', error: `Answer took ${Math.round(ms)} ms` };
  return { ...base, status: 'operational', error: null };
}
