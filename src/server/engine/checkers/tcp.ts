// TCP checks: a connection to host:port opens within the deadline (address checked first).
import net from 'node:net';
import { resolveSafe, TargetRefused } from '../../net/ssrf.ts';
import { networkErrorText } from '../../net/error-text.ts';
import { failed, round, type Checker } from './types.ts';

/** What a tcp monitor stores (engine/kinds/tcp.ts validates it). */
export interface TcpConfig {
  host?: string;
  port?: number;
  degraded_threshold_ms?: number | null;
}

export const tcpChecker: Checker<TcpConfig> = async (target, env, signal) => {
  const started = performance.now();
  const cfg = target.config;
  let dns = 0;
  try {
    const { address } = await resolveSafe(cfg.host ?? '', env.allowPrivateTargets, env.resolve, signal);
    dns = round(performance.now() - started);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect({ host: address, port: cfg.port ?? 0, signal });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', reject);
    });
    const total = round(performance.now() - started);
    const timings = { dns, connect: round(total - dns), total };
    if (cfg.degraded_threshold_ms && total > cfg.degraded_threshold_ms) {
      return {
        status: 'degraded',
        responseTimeMs: total,
        httpCode: null,
        error: `Connection took ${Math.round(total)} ms`,
        timings,
        certExpiresAt: null,
      };
    }
    return { status: 'operational', responseTimeMs: total, httpCode: null, error: null, timings, certExpiresAt: null };
  } catch (e) {
    const timings = { dns, total: round(performance.now() - started) };
    if (signal.aborted) return failed(`Timed out after ${target.timeoutMs / 1000} s`, timings);
    if (e instanceof TargetRefused) return failed(e.message, timings);
    return failed(networkErrorText(e), timings);
  }
};
