// Health of this process: version, database reachability, uptime. Anonymous callers and company
// users learn only the status; the details (which help pick an exploit) are for super admins.
import type { Ctx, Services } from '../context.ts';

const startedAt = Date.now();

export interface Health {
  status: 'ok' | 'degraded';
  version: string;
  database: { kind: 'sqlite' | 'postgres'; status: 'up' | 'down' };
  uptime_seconds: number;
}

export async function getHealth(services: Services): Promise<Health> {
  const up = await services.db.ping();
  return {
    status: up && services.ready ? 'ok' : 'degraded',
    version: services.version,
    database: { kind: services.db.kind, status: up ? 'up' : 'down' },
    uptime_seconds: Math.round((Date.now() - startedAt) / 1000),
  };
}

/** The health call's answer for this caller. */
export async function getHealthFor(ctx: Ctx): Promise<Health | Pick<Health, 'status'>> {
  const health = await getHealth(ctx.services);
  return ctx.actor?.role === 'super_admin' ? health : { status: health.status };
}
