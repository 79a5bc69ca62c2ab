// Array parameters written by pg-array-literal.ts: the very text node-postgres writes for them, and
// on a real PostgreSQL server (the only database with array parameters) every element comes back
// as sent, quotes, backslashes, braces, commas, "NULL" and all.
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from './connect.ts';
import { pgArrayLiteral } from './pg-array-literal.ts';
import { freshDb } from '../../../tests/support/test-db.ts';

const pgUtils = createRequire(import.meta.url)('pg/lib/utils') as { prepareValue(v: unknown): unknown };

const AWKWARD = [
  '',
  'NULL',
  'null',
  'a,b',
  '{x}',
  'say "hi"',
  'back\\slash',
  '\\"',
  ' lead',
  'trail ',
  'tab\tnew\nline',
  'ünïcødé ✓',
  '01JABCDEF',
];

function random(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('array parameters as literals', () => {
  it('are the text node-postgres writes, for strings, numbers, booleans and nulls', () => {
    const rnd = random(9);
    const pick = (): unknown => {
      const r = rnd();
      if (r < 0.5) return AWKWARD[Math.floor(rnd() * AWKWARD.length)] + String(Math.floor(rnd() * 100));
      if (r < 0.7) return Math.floor((rnd() - 0.5) * 2 ** 40);
      if (r < 0.8) return (rnd() - 0.5) * 1000;
      if (r < 0.85) return rnd() < 0.5;
      if (r < 0.9) return null;
      return [Number.NaN, Number.POSITIVE_INFINITY, -0, 2 ** 53][Math.floor(rnd() * 4)];
    };
    const arrays = [
      [],
      AWKWARD,
      [null, undefined, 'x'],
      ...Array.from({ length: 500 }, () => Array.from({ length: Math.floor(rnd() * 40) }, pick)),
    ];
    for (const a of arrays) expect(pgArrayLiteral(a)).toBe(pgUtils.prepareValue(a));
  });

  it('leave arrays of anything else to node-postgres', () => {
    expect(pgArrayLiteral([['nested']])).toBeNull();
    expect(pgArrayLiteral([Buffer.from('x')])).toBeNull();
    expect(pgArrayLiteral([new Date(0)])).toBeNull();
    expect(pgArrayLiteral([{ a: 1 }])).toBeNull();
  });

  describe('on PostgreSQL', () => {
    let db: Db;
    afterAll(async () => {
      await db?.close();
    });

    it('bring every element back as sent, and arrays node-postgres writes still work', async () => {
      db = await freshDb('postgres', { migrate: false });
      const texts = await sql<{ v: string | null }>`select unnest(${[...AWKWARD, null]}::text[]) as v`.execute(db.k);
      expect(texts.rows.map((r) => r.v)).toEqual([...AWKWARD, null]);
      const nums = await sql<{ n: string }>`select sum(x)::text as n from unnest(${[1, 2, 2 ** 40, -7]}::bigint[]) as x`.execute(db.k);
      expect(nums.rows[0].n).toBe(String(1 + 2 + 2 ** 40 - 7));
      const found = await sql<{ hit: boolean }>`select 'say "hi"7' = any(${['a', 'say "hi"7']}::text[]) as hit`.execute(db.k);
      expect(found.rows[0].hit).toBe(true);
      const nested = await sql<{ v: string }>`select (${[['a', 'b'], ['c', 'd']]}::text[][])[2][1] as v`.execute(db.k);
      expect(nested.rows[0].v).toBe('c');
      const bytes = await sql<{ n: number }>`select octet_length((${[Buffer.from('xyz')]}::bytea[])[1]) as n`.execute(db.k);
      expect(bytes.rows[0].n).toBe(3);
    });
  });
});
