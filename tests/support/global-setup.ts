// Vitest global setup: one throwaway PostgreSQL cluster for the whole run (unless
// TEST_PG_URL points at one already). Test files create their own databases in it.
import { startPgCluster, type PgCluster } from './pg-cluster.ts';

let cluster: PgCluster | undefined;

export async function setup(): Promise<void> {
  if (!process.env.TEST_PG_URL) {
    cluster = await startPgCluster();
    process.env.TEST_PG_URL = cluster.url;
  }
}

export async function teardown(): Promise<void> {
  cluster?.stop();
}
