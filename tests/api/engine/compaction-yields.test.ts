// The compaction job shares the server process with the engine: between its batches of monitors
// it gives the event loop a turn, so checks due meanwhile start on time. SQLite's driver is
// synchronous, and without the turn a run of 47,000 rows (50,000 monitors) held the loop for 2 s
// and started 1,074 checks more than a second late (bench/engine --server).
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/server/db/connect.ts';
import { checksRepo } from '../../../src/server/db/repositories/checks-repo.ts';
import { monitorsRepo } from '../../../src/server/db/repositories/monitors-repo.ts';
import { parseConfig } from '../../../src/server/config.ts';
import { compactResults, nextBatchSize } from '../../../src/server/engine/compaction.ts';
import { createServices } from '../../../src/server/services.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { DB_KINDS, freshDb, tempDir } from '../../support/test-db.ts';
import { idleMonitorRow, okResultRow } from './support.ts';

const MONITORS = 350; // three batches at least (50, then at most 100, at most 200)
const MIN = 60_000;

describe.each(DB_KINDS)('compaction and the event loop on %s', (kind) => {
  let db: Db | undefined;
  afterAll(async () => {
    await db?.close();
  });

  it('lets timers run between its batches while it moves every row', async () => {
    db = await freshDb(kind);
    const services = await createServices(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: tempDir() }), { db });
    const company = await seedCompany(services, { plan: 'enterprise' });
    const now = Date.now();
    for (let m = 0; m < MONITORS; m++) {
      const id = `m-${String(m).padStart(4, '0')}`;
      await monitorsRepo(db).insert(idleMonitorRow(id, company.id, now, now - 60 * MIN));
      await checksRepo(db).insertMany(Array.from({ length: 3 }, (_, i) => okResultRow(id, company.id, now - (10 + i) * MIN, 100 + i)));
    }

    // A timer that keeps asking for the next turn, as the engine's due checks do.
    let turns = 0;
    let running = true;
    const spin = () => {
      if (!running) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    const moved = await compactResults(db, now);
    running = false;

    expect(moved).toBe(MONITORS * 3);
    expect(await checksRepo(db).count()).toBe(MONITORS * 3); // all of them, now in chunks
    const rows = await db.k.selectFrom('check_results').select(db.k.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(0);
    // one turn at least after each of the first three batches
    expect(turns).toBeGreaterThanOrEqual(3);
    const history = await checksRepo(db).list('m-0349', { limit: 10 });
    expect(history.map((r) => Number(r.response_time_ms))).toEqual([100, 101, 102]);
  });
});

describe('the size of a compaction batch', () => {
  it('halves after a batch that held the thread past its 8 ms, grows after a quick one, within 5 and 400 monitors', () => {
    expect(nextBatchSize(100, 60)).toBe(50); // 5 locations' rows: a batch of 100 took 19 to 72 ms
    expect(nextBatchSize(100, 2)).toBe(200);
    expect(nextBatchSize(100, 6)).toBe(100);
    expect(nextBatchSize(6, 100)).toBe(5);
    expect(nextBatchSize(300, 1)).toBe(400);
  });
});
