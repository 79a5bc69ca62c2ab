// Storage benchmark: bytes stored per check with REAL checks. The real engine (scheduler, http
// kind, result writer) checks 1,000 http monitors every 20 s against a loopback target in its
// own process (target.ts) for a few minutes, with the check-compaction job run at its own
// period as the jobs runner runs it; then the rows still waiting are compacted and the database
// is measured: SQLite file + WAL after a checkpoint (and its free pages), PostgreSQL every
// table's pg_total_relation_size (partitions, indexes and TOAST included) after a VACUUM; each
// check table's share (dbstat on SQLite); the bytes inside the chunks' data and where they go
// (src/lib/check-chunk.ts `chunkAnatomy`), next to the target of 16 bytes a check.
// Usage: npm run bench:storage [-- --minutes 5 --monitors 1000 --interval 20 --locations 3 --pg]
//   --locations N: every monitor checked from N locations (issue 27): the engine is location 0,
//   locations 1 … N−1 run the same http kind's real checks from this process (remote-locations.ts:
//   the probe process is not on this branch), stored with their location numbers.
//   --minutes 60 for the hour run; --pg a throwaway PostgreSQL cluster (or BENCH_DATABASE_URL).
//   --simulated: the simulated day instead (storage-simulated.ts; --hours 24), made-up latencies.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { chunkAnatomy } from '../../src/lib/check-chunk.ts';
import { checksRepo } from '../../src/server/db/repositories/checks-repo.ts';
import { monitorsRepo, newMonitorRow } from '../../src/server/db/repositories/monitors-repo.ts';
import { newId } from '../../src/server/domain/ids.ts';
import { compactResults, RAW_GRACE_MS } from '../../src/server/engine/compaction.ts';
import { createEngine } from '../../src/server/engine/scheduler.ts';
import { checkCompaction } from '../../src/server/jobs/check-compaction.ts';
import { benchServices } from './bench-services.ts';
import { seedBenchCompanies } from './seed-companies.ts';
import { simulatedDay } from './storage-simulated.ts';
import { type RemoteMonitor, startRemoteLocations } from './remote-locations.ts';

const { values } = parseArgs({
  options: {
    simulated: { type: 'boolean', default: false },
    monitors: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '20' },
    minutes: { type: 'string', default: '5' },
    hours: { type: 'string', default: '24' },
    companies: { type: 'string', default: '10' },
    locations: { type: 'string', default: '1' },
    pg: { type: 'boolean', default: false },
  },
});
const MONITORS = Number(values.monitors);
const INTERVAL = Number(values.interval);
const MINUTES = Number(values.minutes);
const COMPANIES = Number(values.companies);
const LOCATIONS = Number(values.locations);
const TARGET = 16;

/** Tables that hold checks, and what else every check writes (rollups, monitor state). */
const CHECK_TABLES = ['check_results', 'check_chunks'];

async function realChecks(): Promise<void> {
  const target = spawn(process.execPath, [path.join(import.meta.dirname, 'target.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [targetHost] = await new Promise<string[]>((resolve) =>
    target.stdout!.once('data', (d: Buffer) => resolve(String(d).trim().split(' '))),
  );
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-storage-'));
  const { cluster, config, db, services } = await benchServices({ pg: values.pg, dataDir, dbName: 'bench_storage' });
  const now = Date.now();
  const companies = await seedBenchCompanies(db, COMPANIES, now);
  const remote: RemoteMonitor[] = [];
  for (let i = 0; i < MONITORS; i++) {
    const id = newId();
    const checkConfig = {
      url: `http://${targetHost}/m/${i}`,
      method: 'GET',
      accepted_status_codes: ['200-299'],
      follow_redirects: true,
    };
    const firstDueAt = now + Math.floor((i / MONITORS) * INTERVAL * 1000);
    remote.push({ id, companyId: companies[i % COMPANIES], config: checkConfig, firstDueAt });
    await monitorsRepo(db).insert(
      newMonitorRow({
        id,
        company_id: companies[i % COMPANIES],
        name: `bench ${i}`,
        type: 'http',
        config: JSON.stringify(checkConfig),
        is_public: i % 2 === 1,
        interval_seconds: INTERVAL,
        timeout_seconds: Math.min(5, INTERVAL),
        confirmations: 2,
        next_due_at: firstDueAt,
        created_at: now,
      }),
    );
  }

  /** Bytes of each table with its indexes (and, on PostgreSQL, partitions and TOAST). */
  const tables = async (): Promise<Map<string, number>> => {
    if (db.kind === 'sqlite') {
      const rows = await sql<{ name: string; n: number }>`select coalesce(m.tbl_name, d.name) as name, sum(d.pgsize) as n
        from dbstat d left join sqlite_master m on m.name = d.name group by 1`.execute(db.k);
      return new Map(rows.rows.map((x) => [x.name, Number(x.n)]));
    }
    const rows = await sql<{ name: string; n: number }>`select c.relname as name,
        coalesce((select sum(pg_total_relation_size(t.relid)) from pg_partition_tree(c.oid) t where t.isleaf), pg_total_relation_size(c.oid)) as n
      from pg_class c join pg_namespace s on s.oid = c.relnamespace
      where s.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition`.execute(db.k);
    return new Map(rows.rows.map((x) => [x.name, Number(x.n)]));
  };
  /** SQLite: file + WAL after a checkpoint, and the free pages in it; PostgreSQL: every table. */
  const onDisk = async (): Promise<{ bytes: number; free: number }> => {
    if (db.kind === 'sqlite') {
      await sql`pragma wal_checkpoint(truncate)`.execute(db.k);
      const f = config.sqlitePath;
      const free = await sql<{
        n: number;
      }>`select (select freelist_count from pragma_freelist_count) * (select page_size from pragma_page_size) as n`.execute(db.k);
      return { bytes: statSync(f).size + (existsSync(`${f}-wal`) ? statSync(`${f}-wal`).size : 0), free: Number(free.rows[0].n) };
    }
    await sql`vacuum`.execute(db.k);
    return { bytes: [...(await tables()).values()].reduce((a, b) => a + b, 0), free: 0 };
  };
  const disk0 = await onDisk();
  const tables0 = await tables();
  const load0 = os.loadavg()[0];

  const engine = createEngine(services);
  engine.start();
  const remoteRun = startRemoteLocations(db, config, remote, LOCATIONS, INTERVAL * 1000, Math.min(5, INTERVAL) * 1000);
  // The check-compaction job at its period, one run at a time, as the jobs runner runs it.
  let compacting: Promise<unknown> = Promise.resolve();
  const compactOnce = () => (compacting = compacting.then(() => checkCompaction.run(services, Date.now())));
  const compactTimer = setInterval(compactOnce, checkCompaction.periodMs);
  const where = LOCATIONS > 1 ? ` from ${LOCATIONS} locations` : '';
  process.stdout.write(`${MONITORS} http monitors at ${INTERVAL} s${where} against ${targetHost} on ${db.kind} for ${MINUTES} min...\n`);
  const started = Date.now();
  const progress = setInterval(
    () =>
      process.stdout.write(
        `  ${((Date.now() - started) / 60_000).toFixed(0)} min: ${engine.stats.checks + [...remoteRun.checks.values()].reduce((a, b) => a + b, 0)} checks\n`,
      ),
    60_000,
  );
  /** The database right after a compaction run, as at any moment of steady running. */
  const snapshot = async () => {
    await compactOnce();
    const rowsWaiting = Number((await sql<{ n: number }>`select count(*) as n from check_results`.execute(db.k)).rows[0].n);
    return { disk: await onDisk(), tables: await tables(), checks: await checksRepo(db).count(), rowsWaiting };
  };
  await new Promise((r) => setTimeout(r, MINUTES * 30_000));
  const mid = await snapshot();
  await new Promise((r) => setTimeout(r, Math.max(0, started + MINUTES * 60_000 - Date.now())));
  const end = await snapshot();
  clearInterval(progress);
  clearInterval(compactTimer);
  await compacting;
  await remoteRun.stop();
  await engine.stop();
  target.kill('SIGTERM');
  const load1 = os.loadavg()[0];

  // Everything left as rows moves into chunks, as the next runs of the job would.
  await compactResults(services.db, Date.now() + RAW_GRACE_MS + 1);
  const disk1 = await onDisk();
  const tables1 = await tables();
  const checks = await checksRepo(db).count();
  const running = end;
  const rowsWaiting = end.rowsWaiting;

  const chunks = await sql<{ data: Uint8Array; checks: number }>`select data, checks from check_chunks`.execute(db.k);
  const anatomy = { bytes: 0, header: 0, texts: 0, floats: 0, chunks: chunks.rows.length, bits: new Map<string, number>() };
  for (const c of chunks.rows) {
    const a = chunkAnatomy(c.data);
    anatomy.bytes += c.data.length;
    anatomy.header += a.headerBytes;
    anatomy.texts += a.textBytes;
    anatomy.floats += a.floats;
    for (const [name, bits] of Object.entries(a.columnBits)) anatomy.bits.set(name, (anatomy.bits.get(name) ?? 0) + bits);
  }

  const per = (b: number) => (b / Math.max(1, checks)).toFixed(2);
  const grown = (t: Map<string, number>, names: string[]) => names.reduce((a, n) => a + (t.get(n) ?? 0) - (tables0.get(n) ?? 0), 0);
  const others = [...tables1.keys()].filter((n) => !CHECK_TABLES.includes(n));
  const growth = [...tables1]
    .map(([name, n]) => [name, n - (tables0.get(name) ?? 0)] as const)
    .filter(([, n]) => Math.abs(n) >= 4096)
    .sort((a, b) => b[1] - a[1]);
  const fileNote =
    db.kind === 'sqlite'
      ? `SQLite file + WAL after a checkpoint; ${((disk1.free - disk0.free) / 1048576).toFixed(1)} MiB of it free pages the next rows reuse`
      : 'every table with partitions, indexes and TOAST, after VACUUM';
  const steadyChecks = end.checks - mid.checks;
  const steady = (end.disk.bytes - end.disk.free - (mid.disk.bytes - mid.disk.free)) / Math.max(1, steadyChecks);
  const byLocation =
    LOCATIONS > 1
      ? [
          `locations            ${LOCATIONS}: 0 the built-in engine (${engine.stats.checks} checks), ${[...remoteRun.checks].map(([l, n]) => `${l} (${n})`).join(', ')}: the same http kind's real checks run by the bench as a probe would (remote-locations.ts; the probe process is not on this branch), each check stored with its location`,
        ]
      : [];
  const perLocation = LOCATIONS > 1 ? ' per location' : '';
  const lines = [
    `storage benchmark, REAL checks: ${MONITORS} http monitors at ${INTERVAL} s${where} against loopback, ${db.kind}, ${MINUTES} min = ${checks} checks`,
    ...byLocation,
    `${`bytes per check${perLocation}`.padEnd(20)} ${steady.toFixed(2)}   (target <= ${TARGET}; what each further check adds: growth over the second half of the run, ${steadyChecks} checks, both ends just after a compaction run${db.kind === 'sqlite' ? `, free pages not counted: ${((end.disk.bytes - mid.disk.bytes) / Math.max(1, steadyChecks)).toFixed(2)} with them` : ''})`,
    `whole run            ${per(disk1.bytes - disk0.bytes)}   (whole database growth ${((disk1.bytes - disk0.bytes) / 1048576).toFixed(1)} MiB over the run, ${fileNote}: includes fixed costs that do not grow with time, the rows waiting between runs and the day's first rollup rows)`,
    `check tables         ${per(grown(tables1, CHECK_TABLES))}   (rows + chunks with their keys, after the last rows were compacted)`,
    `  as it ran          ${per(grown(running.tables, CHECK_TABLES))}   (${rowsWaiting} rows waiting for compaction at the end; whole database ${per(running.disk.bytes - disk0.bytes)})`,
    `other tables         ${per(grown(tables1, others))}   (rollups, monitor state)`,
    `chunk data           ${per(anatomy.bytes)}   (${anatomy.chunks} chunks; per check: header ${per(anatomy.header)}, texts ${per(anatomy.texts)}, ${anatomy.floats} float64 values)`,
    `  columns (bits a check) ${[...anatomy.bits]
      .filter(([, b]) => b > 0)
      .map(([n, b]) => `${n} ${(b / Math.max(1, checks)).toFixed(1)}`)
      .join(', ')}`,
    ...growth.map(([name, n]) => `  ${name.padEnd(40)} ${per(n).padStart(7)} bytes/check`),
    `load average ${load0.toFixed(1)} at the start, ${load1.toFixed(1)} at the end, on ${os.cpus().length} cores`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await services.db.close();
  cluster?.stop();
}

const run = values.simulated
  ? () => simulatedDay({ monitors: MONITORS, hours: Number(values.hours), companies: COMPANIES, pg: values.pg })
  : realChecks;
run().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
