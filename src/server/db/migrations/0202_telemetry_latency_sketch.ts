// RED rollups trade their 20 fixed latency buckets (h0..h19) for a sparse sketch of bounded
// relative error in one text column (`hist`, the format of src/lib/latency-sketch.ts:
// `key*count` entries joined by commas). Ingest keys get the browser origins they accept.
//
// Old rows can only be approximated: a fixed bucket kept no values, so each of its requests is
// counted at the bucket's midpoint (0.5 ms for [0, 1], 400 ms for (300, 500]; the open bucket
// above 30 s at 30 s). Counts are kept whole: requests, errors and sum_ms are untouched and the
// sketch holds exactly as many requests as the old buckets did. Percentiles of minutes rolled
// up before this migration are as coarse as they were; later minutes are within 1 %.
import { sql, type Kysely, type RawBuilder } from 'kysely';

// Frozen copies (the application's constants may change; this migration may not).
const OLD_BOUNDS = [1, 2, 5, 10, 25, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2500, 5000, 10000, 30000];
const LN_GAMMA = Math.log(1.01 / 0.99); // relative accuracy 1 %

function midpoint(i: number): number {
  if (i >= OLD_BOUNDS.length) return OLD_BOUNDS[OLD_BOUNDS.length - 1];
  const lower = i === 0 ? 0 : OLD_BOUNDS[i - 1];
  return (lower + OLD_BOUNDS[i]) / 2;
}

const keyOf = (v: number) => Math.ceil(Math.log(v) / LN_GAMMA);

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('red_rollups')
    .addColumn('hist', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // One statement on both databases: each old bucket becomes `key*count,` when it has requests
  // (the parser skips the empty entry a trailing comma leaves).
  const parts: RawBuilder<string>[] = [];
  for (let i = 0; i < 20; i++) {
    const col = sql.ref(`h${i}`);
    parts.push(sql<string>`case when ${col} > 0 then ${sql.lit(`${keyOf(midpoint(i))}*`)} || cast(${col} as text) || ',' else '' end`);
  }
  await sql`update red_rollups set hist = ${sql.join(parts, sql` || `)}`.execute(db);
  for (let i = 0; i < 20; i++) await db.schema.alterTable('red_rollups').dropColumn(`h${i}`).execute();

  // JSON array of origins (scheme://host[:port]) whose pages may send spans with this key.
  await db.schema
    .alterTable('api_keys')
    .addColumn('allowed_origins', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // The sketch is not turned back into fixed buckets: old latency distributions are lost.
  await db.schema.alterTable('api_keys').dropColumn('allowed_origins').execute();
  for (let i = 0; i < 20; i++)
    await db.schema
      .alterTable('red_rollups')
      .addColumn(`h${i}`, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  await db.schema.alterTable('red_rollups').dropColumn('hist').execute();
}
