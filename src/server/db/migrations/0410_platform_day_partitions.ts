// PostgreSQL only (a no-op on SQLite): the time-series tables become range-partitioned tables
// with one partition per UTC day (`check_results_p20261124`), so retention drops a day's
// partition instead of deleting its rows one by one. Each table listed in TABLES is converted
// the same way, inside the migration's transaction:
//   1. its indexes and constraints are read from the catalog, then it is renamed aside;
//   2. a partitioned table LIKE it is created, with a partition for every day that holds data
//      (up to DAYS_BACK days back), today and DAYS_AHEAD days ahead, and a DEFAULT partition as
//      the safety net for rows of any other day (the hourly job moves them once their day has
//      a partition);
//   3. the rows are copied, the old table dropped, and the primary key, unique constraints,
//      indexes and foreign keys recreated under their old names as partitioned ones (built once
//      over the copied rows, faster than maintaining them row by row). PostgreSQL requires every
//      unique key of a partitioned table to hold the partition column, so a key without it gets
//      it appended: the spans key becomes (company_id, trace_id, span_id, start_us).
// The tables are recorded in day_partitioned_tables, which the partition job and retention read:
// partitioning one more table is one more line in TABLES (in a new migration once this one has
// run somewhere).
import { PostgresAdapter, sql, type Kysely } from 'kysely';

interface DayPartitioned {
  table: string;
  /** The bigint time column partitioned on */
  column: string;
  /** What the column counts since the epoch: milliseconds or microseconds */
  unit: 'ms' | 'us';
}

const TABLES: DayPartitioned[] = [
  { table: 'check_results', column: 'checked_at', unit: 'ms' },
  { table: 'spans', column: 'start_us', unit: 'us' },
  { table: 'check_chunks', column: 'chunk_start', unit: 'ms' },
];

// Frozen copies (the application's constants may change; this migration may not).
const DAY_MS = 86_400_000;
const DAYS_AHEAD = 7;
/** Days further back than this keep their rows in DEFAULT: a stray timestamp must not create thousands of tables */
const DAYS_BACK = 400;
const PER_MS = { ms: 1, us: 1000 } as const;

const partitionName = (table: string, dayMs: number) => `${table}_p${new Date(dayMs).toISOString().slice(0, 10).replaceAll('-', '')}`;

interface Definitions {
  /** PRIMARY KEY and UNIQUE constraints: name and definition */
  keys: Array<{ name: string; def: string }>;
  foreignKeys: Array<{ name: string; def: string }>;
  /** Other indexes: their CREATE INDEX statements (a partitioned table's without ONLY, so they cover its partitions) */
  indexes: Array<{ name: string; def: string; unique: boolean }>;
}

async function definitions(db: Kysely<any>, table: string): Promise<Definitions> {
  const constraints = await sql<{ name: string; type: string; def: string }>`
    select conname as name, contype as type, pg_get_constraintdef(oid) as def from pg_constraint
    where conrelid = ${table}::regclass and contype in ('p', 'u', 'f', 'x') order by contype desc, conname`.execute(db);
  const indexes = await sql<{ name: string; def: string; unique: boolean }>`
    select i.relname as name, replace(pg_get_indexdef(x.indexrelid), ' ON ONLY ', ' ON ') as def, x.indisunique as unique
    from pg_index x join pg_class i on i.oid = x.indexrelid
    where x.indrelid = ${table}::regclass
      and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid and c.conrelid = x.indrelid)
    order by i.relname`.execute(db);
  for (const c of constraints.rows)
    if (c.type === 'x') throw new Error(`${table}: exclusion constraint ${c.name} cannot be day-partitioned here`);
  return {
    keys: constraints.rows.filter((c) => c.type === 'p' || c.type === 'u'),
    foreignKeys: constraints.rows.filter((c) => c.type === 'f'),
    indexes: indexes.rows,
  };
}

/** `PRIMARY KEY (a, b)` → `PRIMARY KEY (a, b, column)` unless it holds the column already */
function withColumn(def: string, column: string): string {
  const m = /^(PRIMARY KEY|UNIQUE) \((.*)\)(.*)$/s.exec(def);
  if (!m) throw new Error(`unexpected key definition: ${def}`);
  const cols = m[2].split(',').map((c) => c.trim());
  return cols.includes(column) ? def : `${m[1]} (${[...cols, column].join(', ')})${m[3]}`;
}

/** Converts one table; answers its keys as they were (migrating down restores them) */
async function partition(db: Kysely<any>, t: DayPartitioned, now: number): Promise<Definitions['keys']> {
  const defs = await definitions(db, t.table);
  for (const x of defs.indexes)
    if (x.unique) throw new Error(`${t.table}: unique index ${x.name} must become a constraint holding ${t.column} first`);
  const table = sql.table(t.table);
  const col = sql.ref(t.column);
  const aside = `${t.table}_unpartitioned`;
  const dayUnits = DAY_MS * PER_MS[t.unit];

  await sql`alter table ${table} rename to ${sql.table(aside)}`.execute(db);
  await sql`create table ${table} (like ${sql.table(aside)} including defaults including constraints including storage)
    partition by range (${col})`.execute(db);

  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const held = await sql<{ day: number }>`select distinct ${col} / ${sql.lit(dayUnits)} as day from ${sql.table(aside)}
    where ${col} >= ${sql.lit((today - DAYS_BACK * DAY_MS) * PER_MS[t.unit])}
      and ${col} < ${sql.lit((today + (DAYS_AHEAD + 1) * DAY_MS) * PER_MS[t.unit])}`.execute(db);
  const days = new Set(held.rows.map((r) => Number(r.day) * DAY_MS));
  for (let i = 0; i <= DAYS_AHEAD; i++) days.add(today + i * DAY_MS);
  for (const day of [...days].sort((a, b) => a - b)) {
    const from = day * PER_MS[t.unit];
    await sql`create table ${sql.table(partitionName(t.table, day))} partition of ${table}
      for values from (${sql.lit(from)}) to (${sql.lit(from + dayUnits)})`.execute(db);
  }
  await sql`create table ${sql.table(`${t.table}_default`)} partition of ${table} default`.execute(db);

  await sql`insert into ${table} select * from ${sql.table(aside)}`.execute(db);
  await sql`drop table ${sql.table(aside)}`.execute(db);

  for (const k of defs.keys)
    await sql`alter table ${table} add constraint ${sql.id(k.name)} ${sql.raw(withColumn(k.def, t.column))}`.execute(db);
  // Read before the rename, each statement names the table by its old name: now the partitioned one.
  for (const x of defs.indexes) await sql.raw(x.def).execute(db);
  for (const f of defs.foreignKeys) await sql`alter table ${table} add constraint ${sql.id(f.name)} ${sql.raw(f.def)}`.execute(db);
  await sql`analyze ${table}`.execute(db);
  return defs.keys;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db.schema
    .createTable('day_partitioned_tables')
    .addColumn('table_name', 'varchar(63)', (c) => c.primaryKey())
    .addColumn('column_name', 'varchar(63)', (c) => c.notNull())
    .addColumn('unit', 'varchar(2)', (c) => c.notNull())
    // JSON [{name, def}]: the primary key and unique constraints before partitioning, for `down`
    .addColumn('original_keys', 'text', (c) => c.notNull())
    .execute();
  const now = Date.now();
  for (const t of TABLES) {
    const keys = await partition(db, t, now);
    await db
      .insertInto('day_partitioned_tables')
      .values({ table_name: t.table, column_name: t.column, unit: t.unit, original_keys: JSON.stringify(keys) })
      .execute();
  }
}

/**
 * Back to plain tables: rows copied into a table LIKE the partitioned one, which then takes its
 * name, its keys as they were before (recorded by `up`), indexes and foreign keys. Rows whose old
 * key repeats (the same span id at two start times) keep one.
 */
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const recorded = await db.selectFrom('day_partitioned_tables').select(['table_name', 'original_keys']).execute();
  for (const r of recorded) {
    const keys = JSON.parse(r.original_keys) as Definitions['keys'];
    const defs = await definitions(db, r.table_name);
    const table = sql.table(r.table_name);
    const plain = `${r.table_name}_plain`;
    await sql`create table ${sql.table(plain)} (like ${table} including defaults including constraints including storage)`.execute(db);
    await sql`insert into ${sql.table(plain)} select * from ${table}`.execute(db);
    await sql`drop table ${table}`.execute(db);
    await sql`alter table ${sql.table(plain)} rename to ${table}`.execute(db);
    // Keys after the copy, so a key that repeats without the partition column keeps its first row.
    for (const k of keys) {
      const cols = /\((.*?)\)/.exec(k.def)?.[1];
      if (cols)
        await sql`delete from ${table} a using ${table} b where a.ctid > b.ctid and ${sql.raw(
          cols
            .split(', ')
            .map((c) => `a.${c} = b.${c}`)
            .join(' and '),
        )}`.execute(db);
      await sql`alter table ${table} add constraint ${sql.id(k.name)} ${sql.raw(k.def)}`.execute(db);
    }
    for (const x of defs.indexes) await sql.raw(x.def).execute(db);
    for (const f of defs.foreignKeys) await sql`alter table ${table} add constraint ${sql.id(f.name)} ${sql.raw(f.def)}`.execute(db);
  }
  await db.schema.dropTable('day_partitioned_tables').execute();
}
