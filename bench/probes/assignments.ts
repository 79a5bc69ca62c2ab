// What the probe's assignments cost the platform with 100,000 monitors on one public location
// (issue 27: "make it work for 100,000 monitors"): the whole set once (time and JSON size), a
// call with nothing changed (the check a long poll makes at its start), the once-a-second look a
// waiting call makes (largest rev and count), and a call after one monitor changed (the delta).
// The service is called directly (no HTTP), on SQLite, or PostgreSQL with --pg.
//   node bench/probes/assignments.ts [--pg] [--monitors N]
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Insertable } from 'kysely';
import { probeAssignmentsRepo } from '../../src/server/db/repositories/probe-assignments-repo.ts';
import { newMonitorRow } from '../../src/server/db/repositories/monitors-repo.ts';
import type { MonitorsTable } from '../../src/server/db/schema/monitoring.ts';
import { withTransaction } from '../../src/server/db/scope.ts';
import { hashSecret } from '../../src/server/domain/auth/tokens.ts';
import { newId } from '../../src/server/domain/ids.ts';
import { getProbeAssignments } from '../../src/server/domain/probes/assignments.ts';
import { benchServices } from '../engine/bench-services.ts';
import { seedBenchCompanies } from '../engine/seed-companies.ts';

const pg = process.argv.includes('--pg');
const monitors = Number(process.argv[process.argv.indexOf('--monitors') + 1]) || 100_000;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-probe-assign-'));
const { services, db, cluster } = await benchServices({ pg, dataDir, dbName: 'bench_probe_assignments' });
const now = Date.now();

const companies = await seedBenchCompanies(db, Math.ceil(monitors / 1000), now, (c) => `bench${c}`);
const locationId = newId();
await db.k
  .insertInto('probe_locations')
  .values({ id: locationId, num: 1, slug: 'eu-west', name: 'Frankfurt', company_id: null, created_at: now, created_by: null })
  .execute();
const token = `swp_${'b'.repeat(43)}`;
await db.k
  .insertInto('probe_tokens')
  .values({
    id: newId(),
    location_id: locationId,
    name: 'bench',
    token_hash: hashSecret(token),
    token_prefix: token.slice(0, 12),
    created_at: now,
    created_by: null,
    last_used_at: null,
    revoked_at: null,
  })
  .execute();
const ids: string[] = [];
for (let from = 0; from < monitors; from += 400) {
  const rows: Array<Insertable<MonitorsTable>> = [];
  for (let i = from; i < Math.min(monitors, from + 400); i++) {
    const id = newId();
    ids.push(id);
    rows.push({
      ...newMonitorRow({
        id,
        company_id: companies[i % companies.length],
        name: `bench ${i}`,
        type: 'http',
        config: JSON.stringify({
          url: `http://127.0.0.1:8080/m/${i}`,
          method: 'GET',
          accepted_status_codes: ['200-299'],
          follow_redirects: true,
        }),
        is_public: false,
        interval_seconds: 60,
        timeout_seconds: 10,
        confirmations: 2,
        next_due_at: now,
        created_at: now,
      }),
      // every tenth one also from the built-in engine; all from eu-west
      locations: i % 10 === 0 ? '["local","eu-west"]' : '["eu-west"]',
    });
  }
  await withTransaction(db, (tx) => tx.k.insertInto('monitors').values(rows).execute());
}

const never = new AbortController().signal;
async function timed<T>(runs: number, fn: () => Promise<T>): Promise<{ ms: number; last: T }> {
  const times: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    last = await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: Math.round(times[Math.floor(times.length / 2)] * 10) / 10, last: last as T };
}

const full = await timed(3, () => getProbeAssignments(services, token, {}, never));
const bytes = Buffer.byteLength(JSON.stringify(full.last));
const quiet = await timed(5, () => getProbeAssignments(services, token, { version: full.last.version, wait: 0 }, never));
const repo = probeAssignmentsRepo(db);
const scope = { slug: 'eu-west', companyId: null };
const look = await timed(20, () => Promise.all([repo.latestRev(scope), repo.total(scope)]));
await db.k
  .updateTable('monitors')
  .set({ interval_seconds: 120 })
  .where('id', '=', ids[12345 % ids.length])
  .execute();
const delta = await timed(1, () => getProbeAssignments(services, token, { version: quiet.last.version, wait: 0 }, never));

console.log(
  `probe assignments, ${monitors.toLocaleString('en')} monitors on one public location, ${pg ? 'PostgreSQL' : 'SQLite'} (median):`,
);
console.log(`  whole set            ${full.ms} ms, ${(bytes / 1048576).toFixed(1)} MB of JSON, ${full.last.count} monitors`);
console.log(`  call, nothing new    ${quiet.ms} ms (changed: ${quiet.last.changed})`);
console.log(`  a waiting call's look ${look.ms} ms (once a second while it waits)`);
console.log(`  call after 1 change  ${delta.ms} ms (${delta.last.monitors.length} monitor sent, changed: ${delta.last.changed})`);
await db.close();
await cluster?.stop();
