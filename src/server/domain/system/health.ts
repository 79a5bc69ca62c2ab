// Health of this process: version, database reachability, uptime. Anonymous callers and company
// users learn only the status; the details (which help pick an exploit) are for super admins.
import { canaryVerdict } from '../../engine/canary.ts';
import type { Ctx, Services } from '../context.ts';
import { toIso } from '../ids.ts';

const startedAt = Date.now();

export interface Health {
  status: 'ok' | 'degraded';
  version: string;
  database: { kind: 'sqlite' | 'postgres'; status: 'up' | 'down' };
  uptime_seconds: number;
  /** The checker canary's verdict: whether checks are paused (engine/canary.ts) */
  checks: { status: 'running' | 'paused' | 'unknown'; since: string | null };
}

export async function getHealth(services: Services): Promise<Health> {
  const up = await services.db.ping();
  return {
    status: up && services.ready ? 'ok' : 'degraded',
    version: services.version,
    database: { kind: services.db.kind, status: up ? 'up' : 'down' },
    uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
    checks: up ? await checksState(services) : { status: 'unknown', since: null },
  };
}

async function checksState(services: Services): Promise<Health['checks']> {
  try {
    const v = await canaryVerdict(services.db);
    return v.failing ? { status: 'paused', since: v.since === null ? null : toIso(v.since) } : { status: 'running', since: null };
  } catch {
    return { status: 'unknown', since: null };
  }
}

/** The health call's answer for this caller. */
export async function getHealthFor(ctx: Ctx): Promise<Health | Pick<Health, 'status'>> {
  const health = await getHealth(ctx.services);
  return ctx.actor?.role === 'super_admin' ? health : { status: health.status };
}
