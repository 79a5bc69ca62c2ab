// Services on a database location (migrated), configured like the engine tests': several of them
// on one location stand for several processes sharing a database.
import { parseConfig } from '../../src/server/config.ts';
import { openDb } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import type { Services } from '../../src/server/domain/context.ts';
import { createServices } from '../../src/server/services.ts';
import { tempDir } from './test-db.ts';

export async function servicesOn(
  loc: { file?: string; url?: string },
  now: (() => number) | undefined,
  env: Record<string, string>,
): Promise<Services> {
  const db = loc.file ? openDb({ kind: 'sqlite', file: loc.file }) : openDb({ kind: 'postgres', url: loc.url!, max: 5 });
  await migrateToLatest(db);
  const config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: tempDir(),
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_TARGETS: 'true',
    MIN_CHECK_INTERVAL_SECONDS: '1',
    ...env,
  });
  return createServices(config, { db, now });
}
