// Fresh, migrated databases for tests: a real SQLite file and a real PostgreSQL database.
// Use `describe.each(DB_KINDS)` so a test runs on both.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openDb, type Db, type DbKind } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { readdir } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { Migrator, type Migration } from 'kysely/migration';
import type { Kysely } from 'kysely';
import { createDatabase } from './pg-cluster.ts';

export const DB_KINDS: DbKind[] = ['sqlite', 'postgres'];

export function tempDir(prefix = 'sw-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Where a new database of this kind lives: a file path or a postgres URL. */
export async function newDatabaseLocation(kind: DbKind): Promise<{ file?: string; url?: string }> {
  if (kind === 'sqlite') return { file: path.join(tempDir(), 'test.sqlite') };
  const cluster = process.env.TEST_PG_URL;
  if (!cluster) throw new Error('TEST_PG_URL is not set: tests/support/global-setup.ts starts PostgreSQL');
  return { url: await createDatabase(cluster, `t_${randomBytes(6).toString('hex')}`) };
}

export async function freshDb(kind: DbKind, opts: { migrate?: boolean } = {}): Promise<Db> {
  const loc = await newDatabaseLocation(kind);
  const db = loc.file ? openDb({ kind: 'sqlite', file: loc.file }) : openDb({ kind: 'postgres', url: loc.url!, max: 5 });
  if (opts.migrate !== false) await migrateToLatest(db);
  return db;
}

/**
 * A fresh database of this kind migrated with only the migration files `keep` accepts (by file
 * name): the schema as it was before the migration a test upgrades through.
 */
export async function dbWithMigrations(kind: DbKind, keep: (file: string) => boolean): Promise<Db> {
  const loc = await newDatabaseLocation(kind);
  const db = loc.file ? openDb({ kind: 'sqlite', file: loc.file }) : openDb({ kind: 'postgres', url: loc.url!, max: 2 });
  const dir = path.resolve(import.meta.dirname, '../../src/server/db/migrations');
  const migrations: Record<string, Migration> = {};
  for (const f of (await readdir(dir)).sort()) {
    if (/^\d{4}_.*\.ts$/.test(f) && !f.endsWith('.test.ts') && keep(f))
      migrations[f.replace(/\.ts$/, '')] = (await import(pathToFileURL(path.join(dir, f)).href)) as Migration;
  }
  const { error } = await new Migrator({
    db: db.k,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  }).migrateToLatest();
  if (error) throw error;
  return db;
}

/**
 * Company `c1` and its http monitor `m1`, written with the columns of the first monitoring
 * migration only, so a database opened "as before migration N" can hold them whatever N is.
 */
export async function seedOldSchemaMonitor(k: Kysely<any>): Promise<void> {
  await k
    .insertInto('companies')
    .values({ id: 'c1', name: 'A', email: 'a@a.test', subdomain: 'a', slug: 'a', created_at: 1, updated_at: 1 })
    .execute();
  await k
    .insertInto('monitors')
    .values({
      id: 'm1',
      company_id: 'c1',
      name: 'M',
      type: 'http',
      config: '{}',
      interval_seconds: 60,
      timeout_seconds: 10,
      next_due_at: 0,
      created_at: 1,
      updated_at: 1,
    })
    .execute();
}
