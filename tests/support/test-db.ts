// Fresh, migrated databases for tests: a real SQLite file and a real PostgreSQL database.
// Use `describe.each(DB_KINDS)` so a test runs on both.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openDb, type Db, type DbKind } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
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
