// Engine test scaffolding: real services on a fresh database, a company with users, and a
// context to call the monitor verbs as one of them.
import { parseConfig } from '../../../src/server/config.ts';
import type { DbKind } from '../../../src/server/db/connect.ts';
import type { Ctx, Services } from '../../../src/server/domain/context.ts';
import { createServices } from '../../../src/server/services.ts';
import { actorFor, ctxFor, seedCompany, seedUser } from '../../support/fixtures.ts';
import { freshDb, tempDir } from '../../support/test-db.ts';

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
