// Checks from several locations (issue 27) keep their location through compaction: rows of three
// locations, interleaved in time, move into the hour's chunk and read back each with the
// location that ran it, including two locations' checks of the same millisecond in the chunk
// and a late row of one location merged into it. On SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksRepo } from '../../../src/server/db/repositories/checks-repo.ts';
import { monitorsRepo } from '../../../src/server/db/repositories/monitors-repo.ts';
import type { Services } from '../../../src/server/domain/context.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { engineServices, idleMonitorRow, okResultRow, seedTenant } from './support.ts';

const T0 = Date.UTC(2026, 5, 1, 10, 0, 0);

describe.each(DB_KINDS)('check chunks by location on %s', (kind) => {
  let services: Services;
  let companyId: string;
  const id = `m-loc-${kind}`;

  beforeAll(async () => {
    services = await engineServices(kind);
    companyId = (await seedTenant(services)).company.id;
    await monitorsRepo(services.db).insert(idleMonitorRow(id, companyId, T0 + 7_200_000, T0 - 1000));
  });
  afterAll(async () => {
    await services?.db.close();
  });

  it('compacts interleaved checks of three locations and reads each back with its location', async () => {
    const repo = checksRepo(services.db);
    const rows = [];
    for (let i = 0; i < 30; i++)
      for (const [location, offset, ms] of [
        [0, 0, 10],
        [2, 7_000, 90],
        [5, 13_000, 180],
      ])
        rows.push({ ...okResultRow(id, companyId, T0 + i * 60_000 + offset, ms + (i % 7)), location });
    await repo.insertMany(rows);
    expect(await repo.compact([id], T0 + 3_600_000)).toBe(90);
    // a late row of location 2 in the same millisecond as location 0's check: both kept in the chunk
    await repo.insertMany([{ ...okResultRow(id, companyId, T0 + 5 * 60_000, 77), location: 2 }]);
    expect(await repo.compact([id], T0 + 3_600_000)).toBe(1);
    const chunk = await services.db.k.selectFrom('check_chunks').select(['checks']).executeTakeFirstOrThrow();
    expect(chunk.checks).toBe(91);

    const back = await repo.list(id, { limit: 200 });
    const got = back.map((r) => [Number(r.checked_at), r.location, r.response_time_ms]);
    const want = rows.map((r) => [r.checked_at, r.location, r.response_time_ms]).sort((a, b) => (b[0] as number) - (a[0] as number));
    // list() answers one check per millisecond (the rows' key is the monitor and the time): the chunk's later one of T0 + 5 min
    expect(got).toEqual(want.map((w) => (w[0] === T0 + 5 * 60_000 ? [w[0], 2, 77] : w)));
    expect(new Set(back.map((r) => r.location))).toEqual(new Set([0, 2, 5]));
  });
});
