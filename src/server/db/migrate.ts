// Versioned migrations, applied at start on both databases. Files in ./migrations are named
// NNNN_area_what.ts; each area of the product owns its own number range (see docs/development/layout.md).
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Db } from './connect.ts';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

const provider: MigrationProvider = {
  async getMigrations() {
    const out: Record<string, Migration> = {};
    for (const f of (await readdir(dir)).sort()) {
      if (!/^\d{4}_.*\.ts$/.test(f) || f.endsWith('.test.ts')) continue;
      out[f.replace(/\.ts$/, '')] = (await import(pathToFileURL(path.join(dir, f)).href)) as Migration;
    }
    return out;
  },
};

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db: db.k, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
