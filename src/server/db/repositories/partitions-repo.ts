// SQL for the day partitions of PostgreSQL's time-partitioned tables (migration 0410): which
// tables are partitioned, each one's partitions with their day, creating a day's partition
// (moving the rows that waited for it in the DEFAULT partition) and dropping one. PostgreSQL
// only: the callers check db.kind (SQLite has no partitions).
import { sql } from 'kysely';
import { withTransaction, type DbScope } from '../scope.ts';
import { dayPartitionName, UNITS_PER_MS, type TimeUnit } from '../../../lib/day-partitions.ts';
import { DAY_MS } from '../../../lib/timeline.ts';

export interface DayPartitionedTable {
  table: string;
  /** The bigint time column it is partitioned on */
  column: string;
  unit: TimeUnit;
}

export interface DayPartition {
  name: string;
  /** First millisecond of its UTC day; null for the DEFAULT partition */
  dayMs: number | null;
}

/** How long a drop may wait for readers and writers of the table before giving up until the next run */
const DROP_LOCK_TIMEOUT = '10s';

export function partitionsRepo(db: DbScope) {
  const k = db.k;
  return {
    async tables(): Promise<DayPartitionedTable[]> {
      const rows = await k.selectFrom('day_partitioned_tables').selectAll().orderBy('table_name').execute();
      return rows.map((r) => ({ table: r.table_name, column: r.column_name, unit: r.unit }));
    },
    /** The table's partitions, read from the catalog: the day each one's range starts, or DEFAULT */
    async list(t: DayPartitionedTable): Promise<DayPartition[]> {
      const r = await sql<{ name: string; bound: string }>`select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
        from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = ${t.table}::regclass order by c.relname`.execute(k);
      return r.rows.map((p) => {
        const from = /FROM \('?(-?\d+)'?\)/.exec(p.bound);
        return { name: p.name, dayMs: from ? Number(from[1]) / UNITS_PER_MS[t.unit] : null };
      });
    },
    /**
     * Creates the partition of one UTC day. Rows of that day already stored sit in the DEFAULT
     * partition (PostgreSQL refuses a new partition that would leave them there): they are moved
     * into a standalone table, which is then attached (its indexes and foreign keys are built or
     * cloned from the parent's on attach). One transaction; answers how many rows moved.
     */
    async createDay(t: DayPartitionedTable, dayMs: number, defaultPartition: string | null): Promise<number> {
      const name = sql.table(dayPartitionName(t.table, dayMs));
      const parent = sql.table(t.table);
      const from = dayMs * UNITS_PER_MS[t.unit];
      const to = from + DAY_MS * UNITS_PER_MS[t.unit];
      return withTransaction(db, async (tx) => {
        await sql`create table ${name} (like ${parent} including defaults including constraints including storage)`.execute(tx.k);
        let moved = 0;
        if (defaultPartition) {
          const col = sql.ref(t.column);
          const r = await sql`with moved as (
              delete from ${sql.table(defaultPartition)} where ${col} >= ${from} and ${col} < ${to} returning *
            ) insert into ${name} select * from moved`.execute(tx.k);
          moved = Number(r.numAffectedRows ?? 0);
        }
        await sql`alter table ${parent} attach partition ${name} for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(tx.k);
        return moved;
      });
    },
    /**
     * Drops one partition (its rows go with it), waiting at most DROP_LOCK_TIMEOUT for the table's
     * lock. A partition another job dropped meanwhile is no error.
     */
    /** Drops the partition when it holds no row (checked under its lock); answers whether it did. */
    async dropIfEmpty(partition: string): Promise<boolean> {
      return withTransaction(db, async (tx) => {
        await sql`set local lock_timeout = ${sql.lit(DROP_LOCK_TIMEOUT)}`.execute(tx.k);
        // Locked first: no row can arrive between the look and the drop.
        await sql`lock table ${sql.table(partition)} in access exclusive mode`.execute(tx.k);
        const r = await sql<{ e: boolean }>`select exists (select 1 from ${sql.table(partition)}) as e`.execute(tx.k);
        if (r.rows[0].e) return false;
        await sql`drop table ${sql.table(partition)}`.execute(tx.k);
        return true;
      });
    },
    async drop(partition: string): Promise<void> {
      await withTransaction(db, async (tx) => {
        await sql`set local lock_timeout = ${sql.lit(DROP_LOCK_TIMEOUT)}`.execute(tx.k);
        await sql`drop table if exists ${sql.table(partition)}`.execute(tx.k);
      });
    },
  };
}
