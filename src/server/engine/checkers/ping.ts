// Ping checks: ICMP echo to the resolved address through Debian's ping (iputils-ping), which holds
// the raw-socket capability (or uses the kernel's ping sockets) so the server needs none. Never a
// shell: fixed arguments, and the address the SSRF guard judged rather than the name the user
// typed, so ping cannot resolve the name to somewhere else.
import { spawn } from 'node:child_process';
import { resolveSafe, TargetRefused } from '../../net/ssrf.ts';
import { networkErrorText } from '../../net/error-text.ts';
import { DEFAULT_PING_MAX_LOSS_PERCENT, DEFAULT_PING_PACKETS } from '../../../lib/monitor-kinds.ts';
import { lossText, parsePingSummary, rttText, type PingSummary } from './ping-output.ts';
import { failed, round, type Checker, type CheckOutcome, type Timings } from './types.ts';

/** What a ping monitor stores (engine/kinds/ping.ts validates it). */
export interface PingConfig {
  host?: string;
  packet_count?: number;
  max_packet_loss_percent?: number;
  degraded_threshold_ms?: number | null;
}

/** 0.2 s between echo requests: the smallest interval iputils allows users without root. */
const INTERVAL_S = 0.2;
/** ping is stopped (SIGINT: it still prints its summary) this long before the check's deadline. */
const MARGIN_MS = 300;
/** Ten packets' summary is about 1 KB; anything past this is not ping talking. */
const MAX_OUTPUT = 64 * 1024;

interface PingRun {
  stdout: string;
  stderr: string;
  /** The process could not be started (ENOENT: not installed) */
  spawnError: string | null;
}

function runPing(args: string[], budgetMs: number, signal: AbortSignal): Promise<PingRun> {
  return new Promise((resolve) => {
    // spawn, not execFile: execFile's own time-out closes the output before ping writes its summary.
    // LC_ALL=C: the summary is parsed, so no translated output.
    const child = spawn('ping', args, {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let overflow = false;
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT) {
        overflow = true;
        child.kill('SIGKILL');
      } else into.push(chunk);
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    // Stopped with SIGINT before the check's deadline: ping still prints what it saw.
    const stopTimer = setTimeout(() => child.kill('SIGINT'), budgetMs);
    const abort = () => child.kill('SIGKILL');
    signal.addEventListener('abort', abort, { once: true });
    let spawnError: string | null = null;
    child.once('error', (e: NodeJS.ErrnoException) => {
      spawnError = e.code ?? 'ERROR';
    });
    child.once('close', () => {
      clearTimeout(stopTimer);
      signal.removeEventListener('abort', abort);
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        spawnError: overflow ? 'OVERFLOW' : spawnError,
      });
    });
  });
}

/** ping's own complaints on stderr, as our sentences (never its text). */
function pingErrorText(run: PingRun): string {
  if (run.spawnError === 'ENOENT') return 'The ping command is not installed on this server (Debian package iputils-ping)';
  if (run.spawnError === 'OVERFLOW') return 'The ping command gave an unreadable answer';
  if (/Network is unreachable/i.test(run.stderr)) return networkErrorText({ code: 'ENETUNREACH' });
  if (/No route to host/i.test(run.stderr)) return networkErrorText({ code: 'EHOSTUNREACH' });
  if (/Operation not permitted|Permission denied/i.test(run.stderr))
    return 'This server may not send ICMP echo requests (ping needs CAP_NET_RAW or net.ipv4.ping_group_range)';
  return 'The ping command gave an unreadable answer';
}

export function judgePing(s: PingSummary, cfg: PingConfig, timings: Timings): CheckOutcome {
  if (!s.rtt) return failed(lossText(s), timings);
  const avg = round(s.rtt.avg);
  const lossPercent = ((s.sent - s.received) / s.sent) * 100;
  const maxLoss = cfg.max_packet_loss_percent ?? DEFAULT_PING_MAX_LOSS_PERCENT;
  const base = { responseTimeMs: avg, httpCode: null, timings, certExpiresAt: null };
  if (lossPercent > maxLoss) return { ...base, status: 'degraded', error: `${lossText(s)}; ${rttText(s)}` };
  if (cfg.degraded_threshold_ms && avg > cfg.degraded_threshold_ms)
    return {
      ...base,
      status: 'degraded',
      error: `Average round trip ${Math.round(avg)} ms is above ${cfg.degraded_threshold_ms} ms; ${rttText(s)}`,
    };
  return { ...base, status: 'operational', error: null };
}

export const pingChecker: Checker<PingConfig> = async (target, env, signal) => {
  const started = performance.now();
  const cfg = target.config;
  let dns = 0;
  try {
    const { address, family } = await resolveSafe(cfg.host ?? '', env.allowPrivateTargets, env.resolve, signal);
    dns = round(performance.now() - started);
    const budgetMs = Math.round(Math.max(200, target.timeoutMs - (performance.now() - started) - MARGIN_MS));
    const count = cfg.packet_count ?? DEFAULT_PING_PACKETS;
    // -W: how long ping waits for replies after its last request; it exits as soon as all came back.
    const wait = Math.max(0.2, budgetMs / 1000).toFixed(1);
    const args = ['-n', family === 6 ? '-6' : '-4', '-c', String(count), '-i', String(INTERVAL_S), '-W', wait, '--', address];
    const run = await runPing(args, budgetMs, signal);
    const timings = { dns, total: round(performance.now() - started) };
    if (signal.aborted) return failed(`Timed out after ${target.timeoutMs / 1000} s`, timings);
    const summary = parsePingSummary(run.stdout);
    if (!summary || run.spawnError === 'OVERFLOW') return failed(pingErrorText(run), timings);
    return judgePing(summary, cfg, timings);
  } catch (e) {
    const timings = { dns, total: round(performance.now() - started) };
    if (signal.aborted) return failed(`Timed out after ${target.timeoutMs / 1000} s`, timings);
    if (e instanceof TargetRefused) return failed(e.message, timings);
    return failed(networkErrorText(e), timings);
  }
};
