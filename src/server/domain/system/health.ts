// Health of this process: version, database reachability, uptime.
import type { Services } from '../context.ts';

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
