// `kill -9` during check compaction, with the real worker process on both databases: 12 hours of
// results of 250 monitors wait as rows; the worker starts compacting them into chunks and is
// killed with SIGKILL while it is at it. After a restart on the same database the compaction
// finishes, and every monitor's history holds exactly the checks written: none lost, none twice.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../../src/server/db/connect.ts';
import { migrateToLatest } from '../../../src/server/db/migrate.ts';
import { checksRepo, type CheckRow } from '../../../src/server/db/repositories/checks-repo.ts';
import { monitorsRepo } from '../../../src/server/db/repositories/monitors-repo.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { parseConfig } from '../../../src/server/config.ts';
import { createServices } from '../../../src/server/services.ts';
import { DB_KINDS, newDatabaseLocation, tempDir } from '../../support/test-db.ts';
import { idleMonitorRow } from './support.ts';

const WORKER = path.resolve(import.meta.dirname, '../../../src/server/worker.ts');
const MONITORS = 250;
const CHECKS = 720; // 12 hours at one a minute
const MIN = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startWorker(env: Record<string, string>): ChildProcess & { output: () => string } {
  const p = spawn(process.execPath, [WORKER], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  p.stderr.on('data', (d) => (output += d));
  return Object.assign(p, { output: () => output });
}

const exited = (p: ChildProcess) =>
  p.exitCode !== null || p.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => p.once('exit', () => r()));

describe.each(DB_KINDS)('kill -9 during check compaction on %s', (kind) => {
  const procs: ChildProcess[] = [];
  let db: Db | undefined;
  afterAll(async () => {
    for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    await db?.close();
  });

  it('loses nothing and duplicates nothing', async () => {
    const loc = await newDatabaseLocation(kind);
    const dataDir = tempDir();
    const file = path.join(dataDir, 'statuswatch.sqlite'); // where the worker opens SQLite
    const env: Record<string, string> = loc.url ? { DATABASE_URL: loc.url, DATA_DIR: dataDir } : { DATA_DIR: dataDir };
    db = loc.url ? openDb({ kind: 'postgres', url: loc.url, max: 3 }) : openDb({ kind: 'sqlite', file });
    await migrateToLatest(db);
    const services = await createServices(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: tempDir() }), { db });
    const company = await seedCompany(services, { plan: 'enterprise' });
    const now = Date.now();
    const first = now - 10 * MIN - CHECKS * MIN;
    const written = new Map<string, CheckRow[]>();
    for (let m = 0; m < MONITORS; m++) {
      const id = `m-${String(m).padStart(4, '0')}`;
      // paused: the worker's engine leaves them alone, only the compaction touches their results
      await monitorsRepo(db).insert({ ...idleMonitorRow(id, company.id, now, first), is_paused: true });
      const rows: CheckRow[] = [];
      for (let i = 0; i < CHECKS; i++) {
        const down = (i + m) % 97 === 0;
        rows.push({
          monitor_id: id,
          company_id: company.id,
          checked_at: first + i * MIN + ((i * 7919 + m * 31) % 2000),
          status: down ? 'down' : 'operational',
          response_time_ms: down ? null : 40 + ((i * 37 + m) % 300) + (i % 100) / 100,
          http_code: down ? 503 : 200,
          error: down ? `HTTP 503 at check ${i}` : null,
          timings: down
            ? null
            : JSON.stringify({ dns: 1.5, connect: 3.25, ttfb: 30 + (i % 17), total: 40 + ((i * 37 + m) % 300) + (i % 100) / 100 }),
          cert_expires_at: null,
          location: 0,
        });
      }
      for (let i = 0; i < rows.length; i += 400) await checksRepo(db).insertMany(rows.slice(i, i + 400));
      written.set(id, rows.reverse());
    }
    const count = async (table: 'check_results' | 'check_chunks') =>
      Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db!.k)).rows[0].n);
    expect(await count('check_results')).toBe(MONITORS * CHECKS);

    // Kill the worker as soon as its first chunks are committed: the compaction is under way.
    const w = startWorker(env);
    procs.push(w);
    const by = Date.now() + 60_000;
    while ((await count('check_chunks')) === 0 && Date.now() < by && w.exitCode === null) await sleep(5);
    w.kill('SIGKILL');
    await exited(w);
    const rowsAtKill = await count('check_results');
    expect(await count('check_chunks'), w.output()).toBeGreaterThan(0);
    expect(rowsAtKill).toBeGreaterThan(0); // killed before it was done
    expect(rowsAtKill).toBeLessThan(MONITORS * CHECKS);
    if (kind === 'sqlite')
      expect((await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db.k)).rows[0].integrity_check).toBe('ok');

    // The killed worker's job lease would run out in five minutes: let that time pass.
    await db.k.updateTable('job_leases').set({ expires_at: 0 }).where('name', '=', 'check-compaction').execute();
    const again = startWorker(env);
    procs.push(again);
    const done = Date.now() + 90_000;
    while ((await count('check_results')) > 0 && Date.now() < done) await sleep(100);
    again.kill('SIGTERM');
    await exited(again);
    expect(await count('check_results')).toBe(0);

    for (const [id, rows] of written) {
      const got = await checksRepo(db).list(id, { limit: CHECKS + 10 });
      expect(
        got.map((r) => ({ ...r, checked_at: Number(r.checked_at) })),
        id,
      ).toEqual(rows);
    }
    const chunks = await db.k
      .selectFrom('check_chunks')
      .select((eb) => eb.fn.sum<number>('checks').as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(chunks.n)).toBe(MONITORS * CHECKS);
  }, 240_000);
});
