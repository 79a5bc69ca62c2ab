// Test data of the public pages written straight into the monitoring tables (the engine is not
// needed): monitors, scripted hourly/daily rollups, incidents with updates, maintenance windows.
import type { Db } from '../../../src/server/db/connect.ts';
import { newId } from '../../../src/server/domain/ids.ts';
import { insertRollups } from '../../support/rollups.ts';

export const HOUR = 3_600_000;
export const DAY = 86_400_000;
export const hourOf = (ms: number) => Math.floor(ms / HOUR) * HOUR;
export const dayOf = (ms: number) => Math.floor(ms / DAY) * DAY;

/** The author of seeded incident updates: an admin (the engine writes with no author). */
export const SEEDED_ADMIN = 'seeded-admin';

export interface SeededMonitor {
  id: string;
  companyId: string;
  name: string;
}

export async function seedMonitor(
  db: Db,
  companyId: string,
  now: number,
  over: Partial<{
    name: string;
    url: string;
    isPublic: boolean;
    isPaused: boolean;
    status: string;
    lastResponseTimeMs: number | null;
    lastHttpCode: number | null;
    lastCheckedAt: number | null;
    type: string;
  }> = {},
): Promise<SeededMonitor> {
  const id = newId();
  const name = over.name ?? `Monitor ${id.slice(0, 6)}`;
  await db.k
    .insertInto('monitors')
    .values({
      id,
      company_id: companyId,
      name,
      type: (over.type ?? 'http') as 'http',
      config: JSON.stringify({ url: over.url ?? `https://${id.slice(0, 6)}.example.com/health`, method: 'GET' }),
      is_public: over.isPublic !== false,
      is_paused: over.isPaused === true,
      interval_seconds: 60,
      timeout_seconds: 10,
      status: (over.status ?? 'operational') as 'operational',
      status_since: now - DAY,
      last_checked_at: over.lastCheckedAt === undefined ? now - 30_000 : over.lastCheckedAt,
      last_response_time_ms: over.lastResponseTimeMs === undefined ? 123.456 : over.lastResponseTimeMs,
      last_http_code: over.lastHttpCode === undefined ? 200 : over.lastHttpCode,
      next_due_at: now + 60_000,
      created_at: now - 100 * DAY,
      updated_at: now - DAY,
    })
    .execute();
  return { id, companyId, name };
}

export interface Period {
  checks?: number;
  failures?: number;
  degraded?: number;
  maintenance?: number;
  code?: number | null;
}

/** One hour's or day's rollup of a monitor: every check answered in 50-300 ms unless `p` says otherwise. */
async function seedRollup(db: Db, grain: 'hourly' | 'daily', m: SeededMonitor, start: number, p: Period): Promise<void> {
  const period = grain === 'hourly' ? 60 * 60_000 : DAY;
  const checks = grain === 'hourly' ? 60 : 1440;
  await insertRollups(db, grain, {
    monitor_id: m.id,
    company_id: m.companyId,
    [grain === 'hourly' ? 'hour_start' : 'day_start']: start,
    checks: p.checks ?? checks,
    failures: p.failures ?? 0,
    degraded: p.degraded ?? 0,
    maintenance: p.maintenance ?? 0,
    sum_response_ms: checks * 100,
    min_response_ms: 50,
    max_response_ms: 300,
    p95_response_ms: 250,
    last_status: 'operational',
    last_http_code: p.code === undefined ? 200 : p.code,
    last_checked_at: start + period - 60_000,
  });
}

export const seedHourly = (db: Db, m: SeededMonitor, hourStart: number, p: Period = {}): Promise<void> =>
  seedRollup(db, 'hourly', m, hourStart, p);

export const seedDaily = (db: Db, m: SeededMonitor, dayStart: number, p: Period = {}): Promise<void> =>
  seedRollup(db, 'daily', m, dayStart, p);

export async function seedIncident(
  db: Db,
  companyId: string,
  now: number,
  over: Partial<{
    monitorId: string | null;
    title: string;
    severity: string;
    status: string;
    startedAt: number;
    resolvedAt: number | null;
    isPublic: boolean;
    /** `by` null: written by the check engine (default: by an admin) */
    updates: Array<{ status: string; message: string; at: number; by?: string | null }>;
  }> = {},
): Promise<string> {
  const id = newId();
  const startedAt = over.startedAt ?? now - 2 * HOUR;
  const updates = over.updates ?? [];
  await db.k
    .insertInto('incidents')
    .values({
      id,
      company_id: companyId,
      monitor_id: over.monitorId ?? null,
      title: over.title ?? 'Elevated error rates',
      severity: (over.severity ?? 'high') as 'high',
      status: (over.status ?? 'investigating') as 'investigating',
      is_public: over.isPublic !== false,
      started_at: startedAt,
      resolved_at: over.resolvedAt ?? null,
      created_by: null,
      created_at: startedAt,
      updated_at: Math.max(startedAt, ...updates.map((u) => u.at)),
    })
    .execute();
  for (const u of updates) {
    await db.k
      .insertInto('incident_updates')
      .values({
        id: newId(),
        incident_id: id,
        company_id: companyId,
        status: u.status as 'investigating',
        message: u.message,
        created_by: u.by === undefined ? SEEDED_ADMIN : u.by,
        created_at: u.at,
      })
      .execute();
  }
  return id;
}

export async function seedMaintenance(
  db: Db,
  companyId: string,
  now: number,
  over: Partial<{ monitorId: string | null; title: string; description: string | null; startsAt: number; endsAt: number }> = {},
): Promise<string> {
  const id = newId();
  await db.k
    .insertInto('maintenance_windows')
    .values({
      id,
      company_id: companyId,
      monitor_id: over.monitorId ?? null,
      title: over.title ?? 'Database upgrade',
      description: over.description === undefined ? 'We are upgrading the primary database.' : over.description,
      starts_at: over.startsAt ?? now + DAY,
      ends_at: over.endsAt ?? now + DAY + 2 * HOUR,
      created_at: now,
    })
    .execute();
  return id;
}

/**
 * The scripted 24 hours of the tests: blocks 0..23 end with the current hour. Block 13 is down
 * (503), block 14 degraded, block 2 has no data, block 23 operational with no code (shows 200).
 */
export async function seedScriptedHistory(db: Db, m: SeededMonitor, now: number): Promise<void> {
  const first = hourOf(now) - 23 * HOUR;
  for (let i = 0; i < 24; i++) {
    if (i === 2) continue;
    const p: Period = i === 13 ? { failures: 60, code: 503 } : i === 14 ? { failures: 3, code: 200 } : i === 23 ? { code: null } : {};
    await seedHourly(db, m, first + i * HOUR, p);
  }
  for (let d = 0; d < 90; d++) {
    if (d === 40) continue;
    await seedDaily(db, m, dayOf(now) - d * DAY, d === 1 ? { checks: 1440, failures: 144 } : d === 5 ? { checks: 1440, failures: 5 } : {});
  }
}
