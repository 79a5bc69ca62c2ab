// A probe location's health (issue 27), kept by the probe-health job (jobs/probe-health.ts):
// - offline_since: the location's probes all went silent for PROBE_OFFLINE_SECONDS; the time the
//   last of them was heard. Null while one is heard. Set and cleared by compare-and-set, so each
//   offline spell is announced once and its end once, however many processes run the job.
// - flagged_since: the per-location canary: every check the location made over the window failed
//   while other locations saw the same monitors up (its own network is the fault, not the
//   targets). Null when not flagged. The quorum writer counts a flagged location as offline.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('probe_locations').addColumn('offline_since', 'bigint').execute();
  await db.schema.alterTable('probe_locations').addColumn('flagged_since', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ['flagged_since', 'offline_since']) await db.schema.alterTable('probe_locations').dropColumn(c).execute();
}
