// SQL for monitors: tenant-filtered reads and writes, the scheduler's atomic lease claim, and the
// state the engine writes with each batch of results.
import { sql, type Insertable, type RawBuilder, type Selectable, type Updateable } from 'kysely';
import { type DbScope, withTransaction } from '../scope.ts';
import type { MonitorsTable } from '../schema/monitoring.ts';
import { maintenanceRepo } from './maintenance-repo.ts';
import { anyOf } from './any-of.ts';

export type MonitorRow = Selectable<MonitorsTable>;
export type MonitorWithTenant = MonitorRow & { tenant_name: string | null; company_plan: string | null };

export type MonitorSort = 'created_at' | 'name' | 'status' | 'type' | 'last_checked_at' | 'last_response_time';

export interface MonitorPageFilter {
  limit: number;
  offset: number;
  q?: string;
  type?: string;
  status?: string;
  isPublic?: boolean;
  /** true: only archived monitors; otherwise only those not archived */
  archived?: boolean;
  sort: MonitorSort;
  order: 'asc' | 'desc';
}

/** What each sort orders by; names any case (lower), a paused monitor's status reads 'paused'. */
const SORT_EXPR: Record<MonitorSort, RawBuilder<unknown>> = {
  created_at: sql`monitors.created_at`,
  name: sql`lower(monitors.name)`,
  status: sql`(case when monitors.is_paused = 1 then 'paused' else monitors.status end)`,
  type: sql`monitors.type`,
  last_checked_at: sql`monitors.last_checked_at`,
  last_response_time: sql`monitors.last_response_time_ms`,
};

/** A company's monitors that are not archived (what its plan counts). */
async function countLive(k: DbScope['k'], companyId: string): Promise<number> {
  const r = await k
    .selectFrom('monitors')
    .where('company_id', '=', companyId)
    .where('archived_at', 'is', null)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

const NULLABLE_SORTS: ReadonlySet<MonitorSort> = new Set(['last_checked_at', 'last_response_time']);

/** What defines a monitor when it is created; the rest of its row is the state of one never checked. */
export type NewMonitor = Pick<
  Insertable<MonitorsTable>,
  | 'id'
  | 'company_id'
  | 'name'
  | 'type'
  | 'config'
  | 'is_public'
  | 'interval_seconds'
  | 'timeout_seconds'
  | 'confirmations'
  | 'next_due_at'
  | 'created_at'
> & { push_token_hash?: string | null };

/** A new monitor's row: paused off, status unknown, nothing checked or leased yet. */
export function newMonitorRow(m: NewMonitor): Insertable<MonitorsTable> {
  return {
    ...m,
    is_paused: false,
    status: 'unknown',
    status_since: null,
    pending_status: null,
    pending_count: 0,
    last_checked_at: null,
    last_response_time_ms: null,
    last_http_code: null,
    last_error: null,
    cert_expires_at: null,
    push_token_hash: m.push_token_hash ?? null,
    last_push_at: null,
    lease_owner: null,
    lease_expires_at: null,
    last_answers: null,
    updated_at: m.created_at,
  };
}

/**
 * The columns the result writer keeps per check, with their SQL types: writeStates sends them as a
 * VALUES list, whose untyped parameters PostgreSQL reads as text until cast.
 */
const STATE_COLUMNS = {
  status: 'text',
  status_since: 'bigint',
  pending_status: 'text',
  pending_count: 'integer',
  last_checked_at: 'bigint',
  last_response_time_ms: 'real',
  last_http_code: 'integer',
  last_error: 'text',
  cert_expires_at: 'bigint',
  failure_cause: 'text',
  cert_issuer: 'text',
  cert_subject: 'text',
  lease_owner: 'text',
  lease_expires_at: 'bigint',
  next_due_at: 'bigint',
  last_answers: 'text',
  updated_at: 'bigint',
} as const;
export type StateColumn = keyof typeof STATE_COLUMNS;
export type StatePatch = Partial<Pick<MonitorRow, StateColumn>>;

export function monitorsRepo(db: DbScope) {
  const k = db.k;
  const isPostgres = db.kind === 'postgres';
  const withTenant = () =>
    k
      .selectFrom('monitors')
      .leftJoin('companies', 'companies.id', 'monitors.company_id')
      .selectAll('monitors')
      .select(['companies.name as tenant_name', 'companies.plan as company_plan']);
  return {
    async insert(row: Insertable<MonitorsTable>): Promise<void> {
      await k.insertInto('monitors').values(row).execute();
    },
    /**
     * Inserts unless the company already has `limit` monitors; answers whether it did. Count and
     * insert share a transaction holding the company row (PostgreSQL) or the single SQLite
     * writer, so concurrent creates cannot pass the plan limit together.
     */
    async insertWithinLimit(row: Insertable<MonitorsTable> & { company_id: string }, limit: number): Promise<boolean> {
      return withTransaction(db, async ({ k: trx }) => {
        if (isPostgres) await trx.selectFrom('companies').select('id').where('id', '=', row.company_id).forUpdate().execute();
        if (Number.isFinite(limit)) {
          if ((await countLive(trx, row.company_id)) >= limit) return false;
        }
        await trx.insertInto('monitors').values(row).execute();
        return true;
      });
    },
    /**
     * Brings an archived monitor back unless the company already has `limit` monitors that are
     * not archived; answers whether it did. Locked like insertWithinLimit.
     */
    async restoreWithinLimit(id: string, companyId: string, limit: number, patch: Updateable<MonitorsTable>): Promise<boolean> {
      return withTransaction(db, async ({ k: trx }) => {
        if (isPostgres) await trx.selectFrom('companies').select('id').where('id', '=', companyId).forUpdate().execute();
        if (Number.isFinite(limit) && (await countLive(trx, companyId)) >= limit) return false;
        await trx
          .updateTable('monitors')
          .set({ ...patch, archived_at: null })
          .where('id', '=', id)
          .where('company_id', '=', companyId)
          .execute();
        return true;
      });
    },
    /** companyId null = any company (super admins) */
    findById(id: string, companyId: string | null): Promise<MonitorWithTenant | undefined> {
      let q = withTenant().where('monitors.id', '=', id);
      if (companyId) q = q.where('monitors.company_id', '=', companyId);
      return q.executeTakeFirst() as Promise<MonitorWithTenant | undefined>;
    },
    /**
     * One page of the console's list and the number of monitors matching the filters. The
     * target is searched in the URL and host only, never in the rest of the config (headers
     * and body hold secrets a viewer may not read, so a search must not reveal them either).
     */
    async page(companyId: string | null, f: MonitorPageFilter): Promise<{ rows: MonitorWithTenant[]; total: number }> {
      const pg = isPostgres;
      let q = k.selectFrom('monitors').leftJoin('companies', 'companies.id', 'monitors.company_id');
      if (companyId) q = q.where('monitors.company_id', '=', companyId);
      q = q.where('monitors.archived_at', f.archived ? 'is not' : 'is', null);
      if (f.type) q = q.where('monitors.type', '=', f.type as MonitorRow['type']);
      if (f.status === 'paused') q = q.where('monitors.is_paused', '=', true);
      else if (f.status) q = q.where('monitors.is_paused', '=', false).where('monitors.status', '=', f.status as MonitorRow['status']);
      if (f.isPublic !== undefined) q = q.where('monitors.is_public', '=', f.isPublic);
      if (f.q) {
        const pattern = `%${f.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const field = (name: string) =>
          pg ? sql<string>`lower(monitors.config::jsonb ->> ${name})` : sql<string>`lower(json_extract(monitors.config, ${`$.${name}`}))`;
        q = q.where(
          sql<boolean>`(lower(monitors.name) like ${pattern} escape '\\' or ${field('url')} like ${pattern} escape '\\' or ${field('host')} like ${pattern} escape '\\' or ${field('domain')} like ${pattern} escape '\\')`,
        );
      }
      const counted = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const dir = f.order === 'asc' ? sql`asc` : sql`desc`;
      let page = q.selectAll('monitors').select(['companies.name as tenant_name', 'companies.plan as company_plan']);
      // Never-checked monitors last in both directions, on both databases. Only for the columns
      // that can be empty: on the others the extra term would keep the first page of 10,000
      // monitors from being read off the created_at indexes (migration 0110) without a sort.
      if (NULLABLE_SORTS.has(f.sort)) page = page.orderBy(sql`${SORT_EXPR[f.sort]} is null`);
      const rows = await page.orderBy(sql`${SORT_EXPR[f.sort]} ${dir}`).orderBy('monitors.id').limit(f.limit).offset(f.offset).execute();
      return { rows: rows as MonitorWithTenant[], total: Number(counted.n) };
    },
    /** Whether the company's status page shows a monitor (public and not archived). */
    async hasShownMonitor(companyId: string): Promise<boolean> {
      const row = await k
        .selectFrom('monitors')
        .select('id')
        .where('company_id', '=', companyId)
        .where('is_public', '=', true)
        .where('archived_at', 'is', null)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    /** A company's monitors as its Prometheus scrape reports them: every one not archived. */
    listForMetrics(companyId: string) {
      return k
        .selectFrom('monitors')
        .select(['id', 'name', 'type', 'status', 'is_paused', 'last_checked_at', 'last_response_time_ms', 'cert_expires_at'])
        .where('company_id', '=', companyId)
        .where('archived_at', 'is', null)
        .orderBy('name')
        .orderBy('id')
        .execute();
    },
    /**
     * Active monitors of one kind (not archived, not paused; `exceptId` left out), for a kind's
     * plan quota (browser). Holds the company row on PostgreSQL, as insertWithinLimit does, so
     * two creates or resumes in flight cannot pass the quota together; SQLite has one writer.
     */
    async countActiveOfType(companyId: string, type: MonitorRow['type'], exceptId: string | null): Promise<number> {
      if (isPostgres) await k.selectFrom('companies').select('id').where('id', '=', companyId).forUpdate().execute();
      let q = k
        .selectFrom('monitors')
        .where('company_id', '=', companyId)
        .where('type', '=', type)
        .where('archived_at', 'is', null)
        .where('is_paused', '=', false);
      if (exceptId) q = q.where('id', '!=', exceptId);
      const r = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** Monitors that count against the plan: every one not archived. */
    countByCompany: (companyId: string): Promise<number> => countLive(k, companyId),
    async update(id: string, companyId: string, patch: Updateable<MonitorsTable>): Promise<number> {
      const r = await k.updateTable('monitors').set(patch).where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async delete(id: string, companyId: string): Promise<number> {
      const r = await k.deleteFrom('monitors').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /**
     * A heartbeat monitor of an active company by the hash of its token (only heartbeat kinds get
     * one); a suspended company's is not found.
     */
    findByPushTokenHash(hash: string): Promise<MonitorRow | undefined> {
      return k
        .selectFrom('monitors')
        .selectAll()
        .where('push_token_hash', '=', hash)
        .where('archived_at', 'is', null)
        .where('company_id', 'in', k.selectFrom('companies').select('id').where('is_active', '=', true))
        .executeTakeFirst();
    },
    /**
     * Makes the monitor due now, unless it had such an immediate check in the last `windowMs` or
     * its company had `perCompany` of them; answers whether it did. The company row is locked
     * (PostgreSQL) or the single SQLite writer held, so concurrent saves cannot pass the budget together.
     */
    async grantImmediateCheck(id: string, companyId: string, now: number, windowMs: number, perCompany: number): Promise<boolean> {
      const since = now - windowMs;
      return withTransaction(db, async ({ k: trx }) => {
        if (isPostgres) await trx.selectFrom('companies').select('id').where('id', '=', companyId).forUpdate().execute();
        const r = await trx
          .selectFrom('monitors')
          .where('company_id', '=', companyId)
          .where('immediate_check_at', '>', since)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        if (Number(r.n) >= perCompany) return false;
        const u = await trx
          .updateTable('monitors')
          .set({ immediate_check_at: now, next_due_at: now })
          .where('id', '=', id)
          .where('company_id', '=', companyId)
          .where((eb) => eb.or([eb('immediate_check_at', 'is', null), eb('immediate_check_at', '<=', since)]))
          .executeTakeFirst();
        return Number(u.numUpdatedRows) === 1;
      });
    },
    /** A heartbeat at `now`; with `dueNow` the monitor is also made due at once, in the same write. */
    async recordPush(id: string, now: number, dueNow = false): Promise<void> {
      await k
        .updateTable('monitors')
        .set(dueNow ? { last_push_at: now, next_due_at: now } : { last_push_at: now })
        .where('id', '=', id)
        .execute();
    },
    /** A monitor inside an active maintenance window counts neither up nor down (it is planned). */
    async summary(
      companyId: string | null,
      now: number,
    ): Promise<{ up: number; down: number; paused: number; total: number; lastCheck: number | null }> {
      const running = await maintenanceRepo(db).activeAt(companyId ? [companyId] : null, now);
      const wholeCompanies = running.filter((w) => w.monitor_ids.length === 0).map((w) => w.company_id);
      const someMonitors = running.flatMap((w) => w.monitor_ids);
      const inList = (column: string, ids: string[]) => (ids.length ? sql`${sql.ref(column)} in (${sql.join(ids)})` : sql`1 = 0`);
      const inMaintenance = sql<boolean>`(${inList('monitors.company_id', wholeCompanies)} or ${inList('monitors.id', someMonitors)})`;
      let q = k
        .selectFrom('monitors')
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          sql<number>`sum(case when is_paused = 1 then 1 else 0 end)`.as('paused'),
          sql<number>`sum(case when is_paused = 0 and status in ('operational', 'degraded') and not ${inMaintenance} then 1 else 0 end)`.as(
            'up',
          ),
          sql<number>`sum(case when is_paused = 0 and status = 'down' and not ${inMaintenance} then 1 else 0 end)`.as('down'),
          eb.fn.max('last_checked_at').as('last'),
        ])
        .where('archived_at', 'is', null);
      if (companyId) q = q.where('company_id', '=', companyId);
      const r = await q.executeTakeFirstOrThrow();
      return {
        up: Number(r.up ?? 0),
        down: Number(r.down ?? 0),
        paused: Number(r.paused ?? 0),
        total: Number(r.total),
        lastCheck: r.last == null ? null : Number(r.last),
      };
    },
    /**
     * Claims up to `limit` monitors due by `horizon` (a tick ahead, so each check can start at
     * its exact due time) for `owner` in one atomic UPDATE: only rows whose lease
     * is free or expired, so two processes never hold the same due check. The next due time
     * moves forward one interval at claim time (keeping the monitor's phase), or to now + interval
     * when more than an interval late, so a missed slot is never caught up.
     */
    async claimDue(owner: string, now: number, horizon: number, limit: number, leaseMarginMs: number): Promise<MonitorRow[]> {
      const due = k
        .selectFrom('monitors')
        .select('id')
        .where('next_due_at', '<=', horizon)
        .where('is_paused', '=', false)
        .where('archived_at', 'is', null)
        // Monitors checked only from probe locations are not this engine's (issue 27).
        .where('run_local', '=', true)
        // A deactivated company's monitors are not checked.
        .where('company_id', 'not in', k.selectFrom('companies').select('id').where('is_active', '=', false))
        .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
        .orderBy('next_due_at')
        .limit(limit);
      const dueLocked = isPostgres ? due.forUpdate().skipLocked() : due;
      return k
        .updateTable('monitors')
        .set({
          lease_owner: owner,
          lease_expires_at: sql<number>`cast(${horizon} as bigint) + timeout_seconds * 1000 + cast(${leaseMarginMs} as bigint)`,
          next_due_at: sql<number>`case when next_due_at + interval_seconds * 1000 > cast(${now} as bigint) then next_due_at + interval_seconds * 1000 else cast(${now} as bigint) + interval_seconds * 1000 end`,
        })
        .where('id', 'in', dueLocked)
        .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
        .returningAll()
        .execute();
    },
    async setNextDue(id: string, nextDueAt: number): Promise<void> {
      await k.updateTable('monitors').set({ next_due_at: nextDueAt }).where('id', '=', id).execute();
    },
    /** Gives claimed monitors back unchecked (company at its concurrency cap, shutdown). */
    async releaseLeases(ids: string[], owner: string, nextDueAt: number): Promise<void> {
      if (ids.length === 0) return;
      await k
        .updateTable('monitors')
        .set({ lease_owner: null, lease_expires_at: null, next_due_at: nextDueAt })
        .where('id', 'in', ids)
        .where('lease_owner', '=', owner)
        .execute();
    },
    async nextDueAt(): Promise<number | null> {
      const r = await k
        .selectFrom('monitors')
        .where('is_paused', '=', false)
        .where('archived_at', 'is', null)
        .select((eb) => eb.fn.min('next_due_at').as('t'))
        .executeTakeFirst();
      return r?.t == null ? null : Number(r.t);
    },
    lockForState(ids: string[]): Promise<MonitorRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      const q = k
        .selectFrom('monitors')
        .selectAll()
        .where(anyOf(db, 'id', ids, 'text'))
        .orderBy('id');
      return (isPostgres ? q.forUpdate() : q).execute();
    },
    /**
     * Many monitors' state in one statement per patch shape (a batch's results mostly share one):
     * UPDATE … FROM (VALUES …) instead of a statement, and on PostgreSQL a round trip, per monitor.
     */
    async writeStates(rows: Array<{ id: string; patch: StatePatch }>): Promise<void> {
      const shapes = new Map<string, Array<{ id: string; patch: StatePatch }>>();
      for (const r of rows) {
        const shape = Object.keys(r.patch).sort().join(',');
        if (!shapes.has(shape)) shapes.set(shape, []);
        shapes.get(shape)!.push(r);
      }
      for (const [shape, group] of shapes) {
        if (shape === '') continue;
        const cols = shape.split(',') as StateColumn[];
        for (const c of cols) if (!(c in STATE_COLUMNS)) throw new Error(`writeStates: ${c} is not a state column`);
        if (isPostgres) {
          // One array parameter per column (bulk-rows.ts says why), all the group in one statement.
          const arrays = [
            sql`${group.map((r) => r.id)}::text[]`,
            ...cols.map((c) => sql`${group.map((r) => r.patch[c] ?? null)}::${sql.raw(STATE_COLUMNS[c])}[]`),
          ];
          const names = sql.join([sql`id`, ...cols.map((c) => sql.ref(c))]);
          const sets = sql.join(cols.map((c) => sql`${sql.ref(c)} = v.${sql.ref(c)}`));
          await sql`update monitors set ${sets} from unnest(${sql.join(arrays)}) as v(${names}) where monitors.id = v.id`.execute(k);
          continue;
        }
        for (let from = 0; from < group.length; from += 500) {
          const values = group.slice(from, from + 500).map((r) => sql`(${sql.join([r.id, ...cols.map((c) => r.patch[c] ?? null)])})`);
          // VALUES columns are column1, column2, … on both databases
          const named = sql.join([sql`column1 as id`, ...cols.map((c, i) => sql`${sql.raw(`column${i + 2}`)} as ${sql.ref(c)}`)]);
          const sets = sql.join(cols.map((c) => sql`${sql.ref(c)} = v.${sql.ref(c)}`));
          await sql`update monitors set ${sets} from (select ${named} from (values ${sql.join(values)}) as t) as v where monitors.id = v.id`.execute(
            k,
          );
        }
      }
    },
    companyLimits(companyIds: string[]): Promise<Array<{ id: string; max_workers: number; plan: string }>> {
      if (companyIds.length === 0) return Promise.resolve([]);
      return k.selectFrom('companies').select(['id', 'max_workers', 'plan']).where('id', 'in', companyIds).execute();
    },
  };
}

/** Monitors whose due time passed more than an interval ago (the engine was down). */
export async function badlyOverdue({ k }: DbScope, now: number, limit: number): Promise<Array<{ id: string; interval_seconds: number }>> {
  return k
    .selectFrom('monitors')
    .select(['id', 'interval_seconds'])
    .where('is_paused', '=', false)
    .where('archived_at', 'is', null)
    .where(sql<boolean>`next_due_at < cast(${now} as bigint) - interval_seconds * 1000`)
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
    .limit(limit)
    .execute();
}
