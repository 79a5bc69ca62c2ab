// Push (heartbeat) monitors: a cron job calls the monitor's secret URL; the monitor is down when
// no call arrived within the interval plus a grace period (the time-out). No config, no network.
import type { Kind } from './kind.ts';

export const pushKind: Kind<Record<never, never>> = {
  fields: [],
  heartbeat: true,
  validate: () => ({ config: {}, problems: {}, target: null }),
  async check(target, env) {
    const now = env.now();
    const since = target.lastPushAt ?? target.createdAt;
    const allowed = target.intervalMs + target.timeoutMs;
    if (now - since <= allowed) {
      return { status: 'operational', responseTimeMs: null, httpCode: null, error: null, timings: null, certExpiresAt: null };
    }
    const ago =
      target.lastPushAt === null ? 'No heartbeat received yet' : `Last heartbeat ${Math.round((now - target.lastPushAt) / 1000)} s ago`;
    return {
      status: 'down',
      responseTimeMs: null,
      httpCode: null,
      error: `${ago} (expected every ${target.intervalMs / 1000} s)`,
      timings: null,
      certExpiresAt: null,
    };
  },
  present: () => ({}),
  publicTarget: () => null,
};
