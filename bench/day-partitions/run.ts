// PostgreSQL day partitions (migration 0410) at scale, on a throwaway cluster (or
// BENCH_DATABASE_URL, an empty database): a database as it was before 0410 gets --spans (default
// 1,000,000) spans and --results (default 1,000,000) check results spread over --days (default
// 30) days up to now, then migrates. Prints the migration's time and the partitions it made
// (target: minutes, not hours, for a database of this size: it runs once, at start, before the
// server listens), then what retention costs: dropping one day's partition against deleting a
// day's rows (and the vacuum that frees their space), and the hourly job's run when there is
// nothing to do.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Db } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { ensureComingDays } from '../../src/server/db/day-partitions.ts';
import { partitionsRepo } from '../../src/server/db/repositories/partitions-repo.ts';
import { dayPartitionName } from '../../src/lib/day-partitions.ts';
import { DAY_MS, dayStart } from '../../src/lib/timeline.ts';
import { createDatabase, startPgCluster } from '../../tests/support/pg-cluster.ts';
import { dbWithMigrations } from '../../tests/support/test-db.ts';

const { values } = parseArgs({
  options: {
    spans: { type: 'string', default: '1000000' },
    results: { type: 'string', default: '1000000' },
    days: { type: 'string', default: '30' },
  },
});
const SPANS = Number(values.spans);
const RESULTS = Number(values.results);
const DAYS = Number(values.days);
const MONITORS = 100;
const CHUNK = 250_000;

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const secs = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);

async function seed(db: Db, now: number): Promise<void> {
  await sql`insert into companies (id, name, email, subdomain, slug, plan, created_at, updated_at)
    values ('bench-co', 'Bench', 'ops@bench.test', 'bench', 'bench', 'enterprise', ${now}, ${now})`.execute(db.k);
  await sql`insert into monitors (id, company_id, name, type, config, interval_seconds, timeout_seconds, next_due_at, created_at, updated_at)
    select 'm' || g, 'bench-co', 'm' || g, 'http', '{}', 60, 5, ${now}, ${now}, ${now} from generate_series(1, ${MONITORS}) g`.execute(
    db.k,
  );
  const spanStep = Math.floor((DAYS * DAY_MS * 1000) / SPANS);
  for (let from = 0; from < SPANS; from += CHUNK) {
    await sql`insert into spans (company_id, trace_id, span_id, parent_span_id, name, service, kind, start_us, duration_ms, status_code,
        http_status, is_error, is_request, error_message, attributes, events)
      select 'bench-co', lpad(to_hex(i / 5), 32, '0'), lpad(to_hex(i), 16, '0'), null, 'op' || (i % 50), 'svc' || (i % 10), 2,
        ${now * 1000} - i * ${spanStep}, 1 + i % 3000, 0, 200, case when i % 97 = 0 then 1 else 0 end,
        case when i % 5 = 0 then 1 else 0 end, null, '{"http.route":"/r"}', '[]'
      from generate_series(${from}::bigint, ${Math.min(SPANS, from + CHUNK) - 1}::bigint) as g(i)`.execute(db.k);
  }
  const resultStep = Math.floor((DAYS * DAY_MS) / (RESULTS / MONITORS));
  for (let from = 0; from < RESULTS; from += CHUNK) {
    await sql`insert into check_results (monitor_id, checked_at, company_id, status, response_time_ms, http_code, error, timings, cert_expires_at)
      select 'm' || (1 + i % ${MONITORS}), ${now} - (i / ${MONITORS}) * ${resultStep}, 'bench-co', 'operational', 1 + i % 900, 200, null, null, null
      from generate_series(${from}::bigint, ${Math.min(RESULTS, from + CHUNK) - 1}::bigint) as g(i)`.execute(db.k);
  }
  await sql`analyze`.execute(db.k);
}

async function main() {
  const cluster = process.env.BENCH_DATABASE_URL ? undefined : await startPgCluster();
  process.env.TEST_PG_URL ??= cluster?.url ?? process.env.BENCH_DATABASE_URL;
  const db = cluster
    ? await dbWithMigrations('postgres', (f) => f < '0410')
    : await (async () => {
        process.env.TEST_PG_URL = await createDatabase(process.env.BENCH_DATABASE_URL!, 'bench_partitions');
        return dbWithMigrations('postgres', (f) => f < '0410');
      })();
  try {
    const now = Date.now();
    const t0 = performance.now();
    await seed(db, now);
    console.log(`seeded ${SPANS.toLocaleString()} spans and ${RESULTS.toLocaleString()} check results over ${DAYS} days in ${secs(t0)} s`);

    const t1 = performance.now();
    await migrateToLatest(db);
    const took = secs(t1);
    const repo = partitionsRepo(db);
    const tables = await repo.tables();
    const counts = await Promise.all(tables.map(async (t) => `${t.table} ${(await repo.list(t)).length}`));
    console.log(
      `migration 0410: ${took} s for ${(SPANS + RESULTS).toLocaleString()} rows; partitions: ${counts.join(', ')} (days with data, the week ahead, DEFAULT) (target: minutes; load ${load()})`,
    );

    // Retention of one old day: its partition dropped, against deleting the same day's rows.
    const spans = tables.find((t) => t.table === 'spans')!;
    const dropDay = dayStart(now) - (DAYS - 2) * DAY_MS;
    const deleteDay = dropDay + DAY_MS;
    const rowsOf = async (day: number) =>
      Number(
        (
          await sql<{
            n: number;
          }>`select count(*) as n from spans where start_us >= ${day * 1000} and start_us < ${(day + DAY_MS) * 1000}`.execute(db.k)
        ).rows[0].n,
      );
    const dropRows = await rowsOf(dropDay);
    const t2 = performance.now();
    await repo.drop(dayPartitionName(spans.table, dropDay));
    const dropMs = performance.now() - t2;
    const deleteRows = await rowsOf(deleteDay);
    const t3 = performance.now();
    await sql`delete from spans where start_us >= ${deleteDay * 1000} and start_us < ${(deleteDay + DAY_MS) * 1000}`.execute(db.k);
    const deleteMs = performance.now() - t3;
    // Deleted rows still take their space (and index entries) until a vacuum clears them.
    const t5 = performance.now();
    await sql`vacuum ${sql.table(dayPartitionName(spans.table, deleteDay))}`.execute(db.k);
    const vacuumMs = performance.now() - t5;
    console.log(
      `retention of one day of spans: drop partition ${dropMs.toFixed(0)} ms (${dropRows.toLocaleString()} rows); delete rows ${deleteMs.toFixed(0)} ms + vacuum ${vacuumMs.toFixed(0)} ms (${deleteRows.toLocaleString()} rows) (load ${load()})`,
    );

    const t4 = performance.now();
    const r = await ensureComingDays(db, now);
    console.log(
      `day-partitions job with nothing to create: ${(performance.now() - t4).toFixed(0)} ms (created ${r.created}) (load ${load()})`,
    );
  } finally {
    await db.close();
    cluster?.stop();
  }
}

await main();
