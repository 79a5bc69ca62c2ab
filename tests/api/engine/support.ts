// Engine test scaffolding: real services on a fresh database, a company with users, and a
// context to call the monitor verbs as one of them.
import { parseConfig } from '../../../src/server/config.ts';
import type { DbKind } from '../../../src/server/db/connect.ts';
import type { Ctx, Services } from '../../../src/server/domain/context.ts';
import { createServices } from '../../../src/server/services.ts';
import { actorFor, ctxFor, seedCompany, seedUser } from '../../support/fixtures.ts';
import { freshDb, tempDir } from '../../support/test-db.ts';
import { newMonitorRow } from '../../../src/server/db/repositories/monitors-repo.ts';

export interface Clock {
  now(): number;
  set(t: number): void;
  advance(ms: number): void;
}

export function manualClock(start = Date.UTC(2026, 5, 1, 12, 0, 0)): Clock {
  let t = start;
  return {
    now: () => t,
    set: (v) => {
      t = v;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

export async function engineServices(kind: DbKind, env: Record<string, string> = {}, now?: () => number): Promise<Services> {
  const db = await freshDb(kind);
  const config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: tempDir(),
    LOG_LEVEL: 'silent',
    MIN_CHECK_INTERVAL_SECONDS: '1',
    ALLOW_PRIVATE_TARGETS: 'true',
    // The engine tests run many monitors a second against one loopback target: no per-host budget.
    MAX_CHECKS_PER_HOST_PER_MINUTE: '0',
    ...env,
  });
  return createServices(config, { db, now });
}

export async function seedTenant(services: Services, plan = 'enterprise') {
  const company = await seedCompany(services, { plan });
  const admin = await seedUser(services, { userType: 2, companyId: company.id });
  const viewer = await seedUser(services, { userType: 3, companyId: company.id });
  return {
    company,
    admin,
    viewer,
    adminCtx: ctxFor(services, actorFor(admin)) as Ctx,
    viewerCtx: ctxFor(services, actorFor(viewer)) as Ctx,
  };
}

/** A monitor nothing checks within the next hour: for tests that move its stored results. */
export function idleMonitorRow(id: string, companyId: string, now: number, createdAt: number) {
  return newMonitorRow({
    id,
    company_id: companyId,
    name: id,
    type: 'http',
    config: '{}',
    interval_seconds: 60,
    timeout_seconds: 5,
    next_due_at: now + 3_600_000,
    created_at: createdAt,
  });
}

/** An http monitor of `url`, first due at `nextDueAt`. */
export function httpMonitorRow(m: {
  id: string;
  companyId: string;
  name: string;
  url: string;
  intervalSeconds: number;
  timeoutSeconds: number;
  confirmations: number;
  nextDueAt: number;
  createdAt: number;
}) {
  return newMonitorRow({
    id: m.id,
    company_id: m.companyId,
    name: m.name,
    type: 'http',
    config: JSON.stringify({ url: m.url, method: 'GET' }),
    is_public: false,
    interval_seconds: m.intervalSeconds,
    timeout_seconds: m.timeoutSeconds,
    confirmations: m.confirmations,
    next_due_at: m.nextDueAt,
    created_at: m.createdAt,
  });
}

/** A stored check result: operational, HTTP 200, no error, timings or certificate. */
export function okResultRow(monitorId: string, companyId: string, checkedAt: number, responseTimeMs: number) {
  return {
    monitor_id: monitorId,
    company_id: companyId,
    checked_at: checkedAt,
    status: 'operational' as const,
    response_time_ms: responseTimeMs,
    http_code: 200,
    error: null,
    timings: null,
    cert_expires_at: null,
  };
}
