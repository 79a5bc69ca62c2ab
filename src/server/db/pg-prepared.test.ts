// Statements marked PREPARED (pg-prepared.ts) are kept prepared by PostgreSQL on each connection
// that ran them, answer as an unnamed statement would, and survive a change of the tables they
// read; unmarked ones and texts past the cap run unnamed, as before.
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from './connect.ts';
import { MAX_PREPARED, PREPARED, preparedName } from './pg-prepared.ts';
import { freshDb } from '../../../tests/support/test-db.ts';

describe('prepared statements', () => {
  it('are named for marked texts only, one name per text', () => {
    const a = `${PREPARED} select 1 /* pg-prepared.test a */`;
    expect(preparedName('select 1')).toBeUndefined();
    expect(preparedName(` ${PREPARED} select 1`)).toBeUndefined();
    const name = preparedName(a);
    expect(name).toMatch(/^sw_prepared_\d+$/);
    expect(preparedName(`${a} `)).not.toBe(name);
    // the same text made anew (as Kysely compiles it on every call) keeps its name
    expect(preparedName([PREPARED, 'select 1 /* pg-prepared.test a */'].join(' '))).toBe(name);
  });

  describe('on PostgreSQL', () => {
    let db: Db;
    afterAll(async () => {
      await db?.close();
    });

    it('are parsed once per connection, answer every run with its own parameters, and follow the table', async () => {
      db = await freshDb('postgres', { migrate: false });
      await sql`create table things (id text primary key, n int not null)`.execute(db.k);
      await sql`insert into things values ('a', 1), ('b', 2), ('c', 3)`.execute(db.k);
      const sum = (ids: string[]) =>
        sql<{ total: number }>`${sql.raw(PREPARED)} select coalesce(sum(n), 0)::int as total from things where id = any(${ids}::text[])`;
      const held = () => sql<{ statement: string }>`select statement from pg_prepared_statements where statement like ${`${PREPARED}%`}`;
      // one connection throughout: prepared statements belong to a session
      await db.k.connection().execute(async (c) => {
        const totals = [];
        // past the five custom plans, so the generic one is in use for the last runs
        for (const ids of [['a'], ['a', 'b'], ['c'], [], ['a', 'b', 'c'], ['b'], ['a', 'c'], ['zz']])
          totals.push((await sum(ids).execute(c)).rows[0].total);
        expect(totals).toEqual([1, 3, 3, 0, 6, 2, 4, 0]);
        const statements = (await held().execute(c)).rows.map((r) => r.statement);
        expect(statements).toHaveLength(1);
        expect(statements[0]).toContain('from things where id = any($1::text[])');

        // a change of the table is seen by the statement kept prepared
        await sql`alter table things add column note text`.execute(c);
        await sql`update things set n = n * 10`.execute(c);
        expect((await sum(['a', 'b']).execute(c)).rows[0].total).toBe(30);

        // an unmarked statement is not kept
        await sql`select count(*) from things`.execute(c);
        expect((await held().execute(c)).rows).toHaveLength(1);
      });
    });

    it('past the cap of distinct texts, run unnamed and still answer', async () => {
      const texts = Array.from({ length: MAX_PREPARED + 3 }, (_, i) => `${PREPARED} select ${i}::int as v /* cap ${i} */`);
      await db.k.connection().execute(async (c) => {
        for (const [i, t] of texts.entries()) expect((await sql<{ v: number }>`${sql.raw(t)}`.execute(c)).rows[0].v).toBe(i);
        const held = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_prepared_statements where statement like '%/* cap %'`.execute(c);
        // names are per process: the earlier test (and the product's statements) used some of them
        expect(held.rows[0].n).toBeGreaterThan(0);
        expect(held.rows[0].n).toBeLessThan(texts.length);
        expect(texts.map(preparedName).filter((n) => n === undefined).length).toBeGreaterThanOrEqual(3);
      });
    });
  });
});
