// Monitor rollups trade their fixed latency histogram (`response_hist`, a JSON array of counts
// for 20 buckets up to 30 s and one above) for a sketch of bounded relative error
// (`response_sketch`, the text format of src/lib/latency-sketch.ts: `key*count` entries joined by
// commas), as the span rollups did in 0202. Checks written from now on give percentiles within
// 1 % of the exact value.
//
// One-time precision of converted history: a fixed bucket kept no values, so each of its checks
// is counted at the midpoint of the part of the bucket that lies between the period's fastest and
// slowest response (both of which the rollup kept exactly). A converted percentile is therefore
// off by at most half that part's width: exact when the period's responses were all alike, at
// most 50 ms for a p95 in (300, 400], at most 10 s in the (10 s, 30 s] bucket (the open bucket
// above 30 s ends at the period's slowest check). Counts are kept whole: the sketch holds exactly as many
// checks as the buckets did, and averages (sum / count) are unchanged.
import { SqliteAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

// Frozen copies (the application's constants may change; this migration may not).
const OLD_BOUNDS = [5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000, 30000];
const LN_GAMMA = Math.log(1.01 / 0.99); // relative accuracy 1 %
const MIN_VALUE = 1e-6; // at or below: the sketch's zero entry `z`

const TABLES = ['monitor_rollups_hourly', 'monitor_rollups_daily'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL runs each migration in a transaction already; SQLite's migrator does not, and a
  // crash between these statements must not leave a table with half its column swapped.
  if (db.isTransaction) await swap(db);
  else await db.transaction().execute(swap);
}

async function swap(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const greatest = (a: RawBuilder<number>, b: RawBuilder<number>) =>
    sqlite ? sql<number>`max(${a}, ${b})` : sql<number>`greatest(${a}, ${b})`;
  const least = (a: RawBuilder<number>, b: RawBuilder<number>) => (sqlite ? sql<number>`min(${a}, ${b})` : sql<number>`least(${a}, ${b})`);
  const count = (i: number) =>
    sqlite
      ? sql<number>`coalesce(json_extract(response_hist, ${sql.lit(`$[${i}]`)}), 0)`
      : sql<number>`coalesce((response_hist::jsonb ->> ${sql.lit(i)})::bigint, 0)`;
  const minMs = sql<number>`coalesce(min_response_ms, 0)`;
  const maxMs = sql<number>`coalesce(max_response_ms, ${sql.lit(OLD_BOUNDS[OLD_BOUNDS.length - 1])})`;

  const entries: RawBuilder<string>[] = [];
  for (let i = 0; i <= OLD_BOUNDS.length; i++) {
    const lower = i === 0 ? 0 : OLD_BOUNDS[i - 1];
    const lo = greatest(sql.lit(lower), minMs);
    const hi = i < OLD_BOUNDS.length ? least(sql.lit(OLD_BOUNDS[i]), maxMs) : maxMs;
    const v = sql<number>`((${lo} + ${hi}) / 2.0)`;
    const key = sql<string>`case when ${v} > ${sql.lit(MIN_VALUE)}
      then cast(cast(ceil(ln(${v}) / ${sql.lit(LN_GAMMA)}) as bigint) as text) else 'z' end`;
    // `key*count,` when the bucket has checks (the parser skips the empty entry a trailing comma leaves)
    entries.push(sql<string>`case when ${count(i)} > 0 then ${key} || '*' || cast(${count(i)} as text) || ',' else '' end`);
  }
  for (const table of TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('response_sketch', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await sql`update ${sql.table(table)} set response_sketch = ${sql.join(entries, sql` || `)} where response_hist is not null`.execute(db);
    await db.schema.alterTable(table).dropColumn('response_hist').execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  // The sketch is not turned back into fixed buckets: old latency distributions are lost.
  for (const table of TABLES) {
    await db.schema.alterTable(table).addColumn('response_hist', 'text').execute();
    await db.schema.alterTable(table).dropColumn('response_sketch').execute();
  }
}
