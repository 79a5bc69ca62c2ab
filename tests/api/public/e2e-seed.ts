// For the public pages' e2e tests: a server of their own (fresh data directory) and a second
// connection to its SQLite file to write scripted data the way the engine would.
import path from 'node:path';
import { openDb, type Db } from '../../../src/server/db/connect.ts';
import type { Services } from '../../../src/server/domain/context.ts';
import { startServer, type RunningServer } from '../../e2e/support/server.ts';
import { seedCompany } from '../../support/fixtures.ts';

export const E2E_OWNER = { email: 'owner@public.test', password: 'public-pages-password' };

export async function startPublicServer(): Promise<{ server: RunningServer; db: Db; services: Services }> {
  const server = await startServer({ ADMIN_EMAIL: E2E_OWNER.email, ADMIN_PASSWORD: E2E_OWNER.password, RUN_ENGINE: 'false' });
  const db = openDb({ kind: 'sqlite', file: path.join(server.dataDir, 'statuswatch.sqlite') });
  // seedCompany needs only the database and a clock
  const services = { db, now: Date.now } as unknown as Services;
  return { server, db, services };
}

export async function seedBrandedCompany(
  services: Services,
  over: { name: string; subdomain: string; primary?: string; secondary?: string; logo?: string | null; isActive?: boolean },
) {
  const co = await seedCompany(services, { name: over.name, subdomain: over.subdomain, is_active: over.isActive !== false });
  await services.db.k
    .updateTable('companies')
    .set({ primary_color: over.primary ?? '#007bff', secondary_color: over.secondary ?? '#6c757d', logo_base64: over.logo ?? null })
    .where('id', '=', co.id)
    .execute();
  return co;
}

/** A 1x1 PNG */
export const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
