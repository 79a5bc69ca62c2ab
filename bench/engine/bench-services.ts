// The services the engine benchmarks run on: an SQLite file in `dataDir`, or PostgreSQL with
// --pg (a throwaway cluster, Debian's server as the tests use, unless BENCH_DATABASE_URL is set).
import { parseConfig } from '../../src/server/config.ts';
import { openDb } from '../../src/server/db/connect.ts';
import { createServices } from '../../src/server/services.ts';
import { createDatabase, startPgCluster } from '../../tests/support/pg-cluster.ts';

export async function benchServices(opts: { pg: boolean; dataDir: string; dbName: string }) {
  const cluster = opts.pg && !process.env.BENCH_DATABASE_URL ? await startPgCluster() : undefined;
  const url = process.env.BENCH_DATABASE_URL ?? (cluster ? await createDatabase(cluster.url, opts.dbName) : undefined);
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: opts.dataDir,
    ALLOW_PRIVATE_TARGETS: 'true',
    MIN_CHECK_INTERVAL_SECONDS: '1',
    ...(url ? { DATABASE_URL: url } : {}),
  });
  const db = url ? openDb({ kind: 'postgres', url, max: 10 }) : openDb({ kind: 'sqlite', file: config.sqlitePath });
  const services = await createServices(config, { db });
  return { cluster, url, config, db, services };
}
