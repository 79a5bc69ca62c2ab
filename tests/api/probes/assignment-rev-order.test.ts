// Assignment revs in commit order on PostgreSQL (migration 0129): two transactions change two
// monitors' check settings, the first to change commits last. A probe's delta ("changed since my
// version") read between the two commits must not move past the first's change: the second waits
// for the first's advisory lock and takes the larger rev. Before 0129 both took max + 1 from their
// own snapshots (the same rev, or the later commit the smaller), and a probe could miss a change
// until its 10-minute full fetch. SQLite runs one writer at a time (BEGIN IMMEDIATE): its revs
// follow commit order by construction, so this is a PostgreSQL test.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorsRepo, newMonitorRow } from '../../../src/server/db/repositories/monitors-repo.ts';
import { newId } from '../../../src/server/domain/ids.ts';
import { migrateToLatest } from '../../../src/server/db/migrate.ts';
import { openDb, type Db } from '../../../src/server/db/connect.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { newDatabaseLocation } from '../../support/test-db.ts';
import { waitFor } from '../../support/wait-for.ts';
import type { Services } from '../../../src/server/domain/context.ts';

describe('assignment revs on postgres', () => {
  let url: string;
  let db: Db;
  const ids = { first: newId(), second: newId() };
  const clients: pg.Client[] = [];

  beforeAll(async () => {
    url = (await newDatabaseLocation('postgres')).url!;
    db = openDb({ kind: 'postgres', url, max: 2 });
    await migrateToLatest(db);
    const company = await seedCompany({ db, now: () => Date.now() } as unknown as Services);
    for (const [name, id] of Object.entries(ids))
      await monitorsRepo(db).insert(
        newMonitorRow({
          id,
          company_id: company.id,
          name,
          type: 'http',
          config: JSON.stringify({ url: 'http://example.com/' }),
          is_public: false,
          interval_seconds: 60,
          timeout_seconds: 10,
          confirmations: 2,
          next_due_at: Date.now(),
          created_at: Date.now(),
        }),
      );
  });
  afterAll(async () => {
    for (const c of clients) await c.end().catch(() => {});
    await db?.close();
  });

  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    clients.push(c);
    return c;
  };
  const revs = async () =>
    Object.fromEntries(
      (await db.k.selectFrom('monitors').select(['name', 'assignment_rev']).execute()).map((r) => [r.name, Number(r.assignment_rev)]),
    );

  it('gives the change that commits later the larger rev, so a delta read between the commits misses nothing', async () => {
    const before = await revs();
    const [one, two] = [await connect(), await connect()];
    await one.query('begin');
    await one.query('update monitors set interval_seconds = 120 where id = $1', [ids.first]);
    await two.query('begin');
    // the second change waits for the first's lock (seen in pg_locks), however long the first takes
    const second = two.query('update monitors set interval_seconds = 300 where id = $1', [ids.second]);
    const watcher = await connect();
    await waitFor(
      async () =>
        (await watcher.query("select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted")).rows[0].n === 1,
      { what: 'the second change to wait for the first' },
    );
    await one.query('commit');
    await second;
    await two.query('commit');
    const after = await revs();
    expect(after.first).toBeGreaterThan(Math.max(before.first, before.second));
    expect(after.second).toBeGreaterThan(after.first);
  });
});
