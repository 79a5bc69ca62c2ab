// Day partitions on real databases. On PostgreSQL, check results and spans live in one partition
// per UTC day (migration 0410): rows land in their day, a database migrated with data keeps every
// row, the hourly job creates the coming week and moves rows that waited in the DEFAULT partition
// into their new day, and retention drops whole days past the longest plan in use while the rows
// of shorter plans still go. On SQLite the tables stay plain, the job does nothing and retention
// deletes rows: what a reader sees is the same on both.
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DB_KINDS, dbWithMigrations, freshDb, tempDir } from '../../../tests/support/test-db.ts';
import { seedCompany } from '../../../tests/support/fixtures.ts';
import { parseConfig } from '../config.ts';
import type { Services } from '../domain/context.ts';
import { withProcessState } from '../process-state.ts';
import type { Db } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import { checksRepo } from './repositories/checks-repo.ts';
import { monitorsRepo, newMonitorRow } from './repositories/monitors-repo.ts';
import { dayPartitions } from '../jobs/day-partitions.ts';
import { checkResultsRetention } from '../jobs/check-results-retention.ts';
import { spanRetention } from '../jobs/span-retention.ts';
import { SpanWriter } from '../telemetry/span-writer.ts';
import type { DecodedSpan } from '../telemetry/otlp-spans.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const TODAY = Math.floor(Date.now() / DAY) * DAY;
const ymd = (day: number) => new Date(day).toISOString().slice(0, 10).replaceAll('-', '');
const days = (table: string, from: number, n: number) => Array.from({ length: n }, (_, i) => `${table}_p${ymd(from + i * DAY)}`);
/** A day's partition and the 7 after it */
const week = (table: string, from: number) => days(table, from, 8);

const opened: Db[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

function servicesOf(db: Db, now: number): Services {
  return withProcessState({
    config: parseConfig({ NODE_ENV: 'test', DATA_DIR: tempDir() }),
    db,
    now: () => now,
    ready: true,
    version: 'test',
  });
}

/** The partitions of a table, by name (PostgreSQL) */
async function partitions(db: Db, table: string): Promise<string[]> {
  const r = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${table}::regclass order by 1`.execute(db.k);
  return r.rows.map((x) => x.name);
}

/** Which partition holds each row, by its time value (PostgreSQL) */
async function homes(db: Db, table: 'check_results' | 'spans'): Promise<Map<number, string>> {
  const col = table === 'spans' ? 'start_us' : 'checked_at';
  const r = await sql<{
    at: number;
    home: string;
  }>`select ${sql.ref(col)} as at, tableoid::regclass::text as home from ${sql.table(table)}`.execute(db.k);
  return new Map(r.rows.map((x) => [Number(x.at), x.home]));
}

async function indexNames(db: Db, table: string): Promise<string[]> {
  const r =
    db.kind === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = ${table}`.execute(db.k)
      : await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db.k);
  return r.rows.map((x) => x.name).sort();
}

async function addMonitor(db: Db, id: string, companyId: string): Promise<void> {
  const at = { next_due_at: TODAY + 30 * DAY, created_at: TODAY };
  const m = { id, company_id: companyId, name: id, type: 'http' as const, config: '{}', interval_seconds: 60, timeout_seconds: 5 };
  await monitorsRepo(db).insert(newMonitorRow({ ...m, ...at, is_public: false, confirmations: 1 }));
}

const result = (monitorId: string, companyId: string, at: number) => ({
  monitor_id: monitorId,
  checked_at: at,
  company_id: companyId,
  status: 'operational' as const,
  response_time_ms: (at % 997) / 7,
  http_code: 200,
  error: null,
  timings: null,
  cert_expires_at: null,
});

const span = (i: number, atMs: number): DecodedSpan => ({
  trace_id: (i + 1).toString(16).padStart(32, 'a'),
  span_id: (i + 1).toString(16).padStart(16, '0'),
  parent_span_id: null,
  name: 'GET /x',
  service: 'api',
  kind: 2,
  start_us: atMs * 1000 + (i % 1000),
  duration_ms: 10,
  status_code: 0,
  http_status: 200,
  is_error: i % 3 === 0,
  is_request: true,
  error_message: null,
  attributes: '{"http.request.method":"GET","http.route":"/x"}',
  events: '[]',
});

async function rows(db: Db, table: 'check_results' | 'spans', companyId?: string): Promise<number[]> {
  const col = table === 'spans' ? 'start_us' : 'checked_at';
  let q = db.k.selectFrom(table).select(sql<number>`${sql.ref(col)}`.as('at'));
  if (companyId) q = q.where('company_id', '=', companyId);
  return (await q.execute()).map((r) => Number(r.at)).sort((a, b) => a - b);
}

describe.each(DB_KINDS)('day partitions on %s', (kind) => {
  const pg = kind === 'postgres';

  it('a new database has a partition per UTC day from today to a week ahead and a DEFAULT one; rows land in their day; index names stay', async () => {
    const db = await freshDb(kind);
    opened.push(db);
    // (0113 dropped the time indexes: recent rows are read by monitor, then compacted)
    expect(await indexNames(db, 'check_results')).toEqual(pg ? ['check_results_pk'] : []);
    expect(await indexNames(db, 'spans')).toEqual(
      [
        'spans_company_errors_idx',
        'spans_company_service_requests_idx',
        'spans_company_start_idx',
        'spans_errors_idx',
        ...(pg ? ['spans_pk'] : []),
        'spans_requests_idx',
        'spans_trace_idx',
      ].sort(),
    );
    const services = servicesOf(db, TODAY);
    const c = await seedCompany(services);
    await addMonitor(db, 'm1', c.id);
    await checksRepo(db).insertMany([result('m1', c.id, TODAY + 5 * HOUR), result('m1', c.id, TODAY - 400 * DAY)]);
    const writer = new SpanWriter(db);
    expect(await writer.write(c.id, [span(1, TODAY + DAY + HOUR)])).toBe(1);
    await writer.close();
    expect(await rows(db, 'check_results')).toEqual([TODAY - 400 * DAY, TODAY + 5 * HOUR]);
    if (!pg) {
      const tables = await sql<{ name: string }>`select name from sqlite_master where name like '%\_p2%' escape '\\'`.execute(db.k);
      expect(tables.rows).toEqual([]);
      return;
    }
    for (const table of ['check_results', 'spans', 'check_chunks'])
      expect(await partitions(db, table)).toEqual([`${table}_default`, ...week(table, TODAY)].sort());
    const results = await homes(db, 'check_results');
    expect(results.get(TODAY + 5 * HOUR)).toBe(`check_results_p${ymd(TODAY)}`);
    expect(results.get(TODAY - 400 * DAY)).toBe('check_results_default');
    expect([...(await homes(db, 'spans')).values()]).toEqual([`spans_p${ymd(TODAY + DAY)}`]);
    // The spans key holds the partition column, so a key is unique within its day's partition.
    const pk = await sql<{ def: string }>`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'spans_pk'`.execute(
      db.k,
    );
    expect(pk.rows[0].def).toBe('PRIMARY KEY (company_id, trace_id, span_id, start_us)');
  });

  it('migrating a database that holds results and spans keeps every row, each in its own day', async () => {
    const db = await dbWithMigrations(kind, (f) => f < '0410');
    opened.push(db);
    const services = servicesOf(db, TODAY);
    const c = await seedCompany(services);
    await addMonitor(db, 'm1', c.id);
    const times = [TODAY - 500 * DAY, ...Array.from({ length: 60 }, (_, i) => TODAY - 3 * DAY + i * 97 * 60_000)];
    await db.k
      .insertInto('check_results')
      .values(times.map((t) => result('m1', c.id, t)))
      .execute();
    const spans = times.map((t, i) => ({ company_id: c.id, ...span(i, t) }));
    await db.k.insertInto('spans').values(spans).execute();
    const before = {
      results: await db.k.selectFrom('check_results').selectAll().orderBy('checked_at').execute(),
      spans: await db.k.selectFrom('spans').selectAll().orderBy('start_us').execute(),
    };
    expect(before.results.length).toBe(61);

    await migrateToLatest(db);
    expect(await db.k.selectFrom('check_results').selectAll().orderBy('checked_at').execute()).toEqual(before.results);
    expect(await db.k.selectFrom('spans').selectAll().orderBy('start_us').execute()).toEqual(before.spans);
    if (!pg) return;
    // The days that hold data (3 days back, today) and the week ahead; the 500-day-old row waits in DEFAULT.
    expect(await partitions(db, 'check_results')).toEqual(['check_results_default', ...days('check_results', TODAY - 3 * DAY, 11)].sort());
    for (const [at, home] of await homes(db, 'check_results'))
      expect(home).toBe(at < TODAY - 400 * DAY ? 'check_results_default' : `check_results_p${ymd(at)}`);
    for (const part of ['spans_default', `spans_p${ymd(TODAY - 3 * DAY)}`, `spans_p${ymd(TODAY + 7 * DAY)}`])
      expect((await indexNames(db, part)).length, part).toBe(7);
    for (const [at, home] of await homes(db, 'spans'))
      expect(home).toBe(at < (TODAY - 400 * DAY) * 1000 ? 'spans_default' : `spans_p${ymd(at / 1000)}`);
  });

  it('the hourly job creates the coming week and moves rows that waited in DEFAULT into their new day', async () => {
    const db = await freshDb(kind);
    opened.push(db);
    const later = TODAY + 10 * DAY;
    const services = servicesOf(db, later + HOUR);
    const c = await seedCompany(services, { plan: 'enterprise' }); // keeps every day this test makes
    await addMonitor(db, 'm1', c.id);
    await checksRepo(db).insertMany([result('m1', c.id, later + 2 * DAY + HOUR), result('m1', c.id, later + 40 * DAY)]);
    const writer = new SpanWriter(db);
    await writer.write(c.id, [span(1, later + 2 * DAY + HOUR)]);
    await writer.close();
    if (pg) expect((await homes(db, 'check_results')).get(later + 2 * DAY + HOUR)).toBe('check_results_default');

    const line = await dayPartitions.run(services, later + HOUR);
    expect(await rows(db, 'check_results')).toEqual([later + 2 * DAY + HOUR, later + 40 * DAY]);
    expect((await rows(db, 'spans')).length).toBe(1);
    if (!pg) {
      expect(line).toBeUndefined();
      return;
    }
    // (the week the migration made for results is over and empty: compaction's tables lose it)
    expect(line).toBe(
      'created 24 day partitions, moving 2 rows out of the default partitions; dropped 8 past days of results emptied by compaction',
    );
    for (const table of ['spans', 'check_chunks'])
      expect(await partitions(db, table)).toEqual([`${table}_default`, ...week(table, TODAY), ...week(table, later)].sort());
    expect(await partitions(db, 'check_results')).toEqual(['check_results_default', ...week('check_results', later)].sort());
    const results = await homes(db, 'check_results');
    expect(results.get(later + 2 * DAY + HOUR)).toBe(`check_results_p${ymd(later + 2 * DAY)}`);
    expect(results.get(later + 40 * DAY)).toBe('check_results_default');
    expect([...(await homes(db, 'spans')).values()]).toEqual([`spans_p${ymd(later + 2 * DAY)}`]);
    // The new days carry every index of their table, and the moved day's key still refuses a duplicate.
    for (const table of ['check_results', 'spans'])
      for (const part of [`${table}_p${ymd(later + 2 * DAY)}`, `${table}_p${ymd(later + 7 * DAY)}`])
        expect((await indexNames(db, part)).length, part).toBe((await indexNames(db, table)).length);
    await checksRepo(db).insertMany([result('m1', c.id, later + 2 * DAY + HOUR)]);
    expect((await rows(db, 'check_results')).length).toBe(2);
    expect(await dayPartitions.run(services, later + 2 * HOUR)).toBeUndefined();
  });

  it('retention drops whole days past the longest plan in use and deletes the rows shorter plans no longer keep', async () => {
    const db = await dbWithMigrations(kind, (f) => f < '0410');
    opened.push(db);
    const now = TODAY + 12 * HOUR;
    const services = servicesOf(db, now);
    const starter = await seedCompany(services, { plan: 'starter' });
    const enterprise = await seedCompany(services, { plan: 'enterprise' });
    const ages = [100, 40, 10, 3, 0];
    const at = (age: number) => TODAY - age * DAY + 2 * HOUR;
    let i = 0;
    for (const c of [starter, enterprise]) {
      await addMonitor(db, `m${i}`, c.id);
      await db.k
        .insertInto('check_results')
        .values(ages.map((a) => result(`m${i}`, c.id, at(a))))
        .execute();
      await db.k
        .insertInto('spans')
        .values(ages.map((a) => ({ company_id: c.id, ...span(i++, at(a)) })))
        .execute();
    }
    await migrateToLatest(db);
    const partitionCount = async () => (pg ? (await partitions(db, 'check_results')).length + (await partitions(db, 'spans')).length : 0);
    const before = await partitionCount();
    if (pg) expect(before).toBe(2 * (1 + 4 + 8)); // DEFAULT, the days 100, 40, 10 and 3 back, today and the week ahead

    const run = async () => {
      await dayPartitions.run(services, now);
      await checkResultsRetention.run(services, now);
      await spanRetention.run(services, now);
    };
    await run();
    // Starter keeps 7 days, enterprise 90: what each company still has is the same on both databases.
    const ms = (ages: number[]) => ages.map(at);
    expect(await rows(db, 'check_results', starter.id)).toEqual(ms([3, 0]));
    expect(await rows(db, 'check_results', enterprise.id)).toEqual(ms([40, 10, 3, 0]));
    expect((await rows(db, 'spans', starter.id)).map((us) => Math.floor(us / 1000))).toEqual(ms([3, 0]));
    expect((await rows(db, 'spans', enterprise.id)).map((us) => Math.floor(us / 1000))).toEqual(ms([40, 10, 3, 0]));
    if (pg) {
      expect(before - (await partitionCount())).toBe(2); // the day 100 days back, of each table
      expect(await partitions(db, 'spans')).not.toContain(`spans_p${ymd(TODAY - 100 * DAY)}`);
      expect(await partitions(db, 'spans')).toContain(`spans_p${ymd(TODAY - 40 * DAY)}`);
    }

    // Once no company keeps more than 7 days, the older days go whole.
    await db.k.updateTable('companies').set({ plan: 'starter' }).where('id', '=', enterprise.id).execute();
    await run();
    expect(await rows(db, 'check_results', enterprise.id)).toEqual(ms([3, 0]));
    expect((await rows(db, 'spans', enterprise.id)).map((us) => Math.floor(us / 1000))).toEqual(ms([3, 0]));
    if (pg) expect(before - (await partitionCount())).toBe(2 * 3);
  });

  it.runIf(pg)(
    'past days of results that compaction emptied are dropped; a day still holding a row, yesterday and today stay',
    async () => {
      const db = await dbWithMigrations(kind, (f) => f < '0410');
      opened.push(db);
      const now = TODAY + 12 * HOUR;
      const services = servicesOf(db, now);
      const c = await seedCompany(services);
      await addMonitor(db, 'm1', c.id);
      const at = (age: number) => TODAY - age * DAY + 2 * HOUR;
      await checksRepo(db).insertMany([4, 3, 1].map((age) => result('m1', c.id, at(age))));
      await migrateToLatest(db); // the days 4, 3 and 1 back get partitions of their own
      // compaction moved the rows of 4 and 1 days back into chunks
      await db.k
        .deleteFrom('check_results')
        .where('checked_at', 'in', [at(4), at(1)])
        .execute();
      expect(await dayPartitions.run(services, now)).toBe('dropped 1 past days of results emptied by compaction');
      const left = await partitions(db, 'check_results');
      expect(left).not.toContain(`check_results_p${ymd(TODAY - 4 * DAY)}`);
      for (const age of [3, 1, 0]) expect(left).toContain(`check_results_p${ymd(TODAY - age * DAY)}`);
      expect(await rows(db, 'check_results')).toEqual([at(3)]);
      // a late result of the dropped day waits in DEFAULT (compaction takes it from there too)
      await checksRepo(db).insertMany([result('m1', c.id, at(4) + HOUR)]);
      expect((await homes(db, 'check_results')).get(at(4) + HOUR)).toBe('check_results_default');
      expect(await dayPartitions.run(services, now)).toBeUndefined();
    },
  );

  it.runIf(pg)('migrating down makes plain tables again with every row, keys and index names', async () => {
    const db = await freshDb(kind);
    opened.push(db);
    const c = await seedCompany(servicesOf(db, TODAY));
    await addMonitor(db, 'm1', c.id);
    await checksRepo(db).insertMany([result('m1', c.id, TODAY + HOUR), result('m1', c.id, TODAY - 900 * DAY)]);
    const writer = new SpanWriter(db);
    await writer.write(c.id, [span(1, TODAY + HOUR), span(2, TODAY - 900 * DAY)]);
    await writer.close();
    const before = {
      results: await db.k.selectFrom('check_results').selectAll().orderBy('checked_at').execute(),
      spans: await db.k.selectFrom('spans').selectAll().orderBy('start_us').execute(),
      indexes: [await indexNames(db, 'check_results'), await indexNames(db, 'spans')],
    };
    const migration = await import('./migrations/0410_platform_day_partitions.ts');
    await db.k.transaction().execute((tx) => migration.down(tx));
    const kinds = await sql<{ name: string; kind: string }>`select relname as name, relkind as kind from pg_class
      where relname in ('check_results', 'spans') order by 1`.execute(db.k);
    expect(kinds.rows).toEqual([
      { name: 'check_results', kind: 'r' },
      { name: 'spans', kind: 'r' },
    ]);
    expect(await db.k.selectFrom('check_results').selectAll().orderBy('checked_at').execute()).toEqual(before.results);
    expect(await db.k.selectFrom('spans').selectAll().orderBy('start_us').execute()).toEqual(before.spans);
    expect([await indexNames(db, 'check_results'), await indexNames(db, 'spans')]).toEqual(before.indexes);
    const pk = await sql<{ def: string }>`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'spans_pk'`.execute(
      db.k,
    );
    expect(pk.rows[0].def).toBe('PRIMARY KEY (company_id, trace_id, span_id)');
  });

  it('an exporter retry and a repeated check are stored once', async () => {
    const db = await freshDb(kind);
    opened.push(db);
    const services = servicesOf(db, TODAY + HOUR);
    const c = await seedCompany(services);
    await addMonitor(db, 'm1', c.id);
    const writer = new SpanWriter(db);
    const batch = [span(1, TODAY + HOUR), span(2, TODAY + HOUR)];
    expect(await writer.write(c.id, batch)).toBe(2);
    expect(await writer.write(c.id, batch)).toBe(0);
    expect(await writer.write(c.id, [span(1, TODAY + HOUR), span(3, TODAY + HOUR)])).toBe(1);
    await writer.close();
    expect((await rows(db, 'spans')).length).toBe(3);
    if (pg) expect(new Set((await homes(db, 'spans')).values())).toEqual(new Set([`spans_p${ymd(TODAY)}`]));
    await checksRepo(db).insertMany([result('m1', c.id, TODAY + HOUR)]);
    await checksRepo(db).insertMany([result('m1', c.id, TODAY + HOUR), result('m1', c.id, TODAY + 2 * HOUR)]);
    expect(await rows(db, 'check_results')).toEqual([TODAY + HOUR, TODAY + 2 * HOUR]);
  });
});
