// SQL for stored spans: the batch insert (idempotent per company, trace and span), trace search,
// one whole trace, and the retention sweep.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { SpansTable } from '../schema/telemetry.ts';

export type SpanRow = Selectable<SpansTable>;
export type NewSpan = Insertable<SpansTable>;

// The unique key an exporter's retry hits. PostgreSQL's spans are partitioned by day (migration
// 0410), and there every unique key holds the partition column: a retry carries the same start
// time, so it lands in the same day and is still written once. SQLite keeps the key of 0200.
const PG_SPAN_KEY = ['company_id', 'trace_id', 'span_id', 'start_us'] as const;
const SQLITE_SPAN_KEY = ['company_id', 'trace_id', 'span_id'] as const;

// 17 columns a row: stays far below SQLite's 32766 and PostgreSQL's 65535 bound parameters.
const CHUNK = 500;

export interface TraceSearch {
  /** null = every company (super admin) */
  companyId: string | null;
  errorsOnly: boolean;
  sinceUs: number;
  service?: string;
  operation?: string;
  limit: number;
}

/** The trace search screen's filters over request spans, newest first, paged by keyset. */
export interface RequestSearch {
  /** null = every company (super admin) */
  companyId: string | null;
  fromUs: number;
  toUs: number;
  service?: string;
  operation?: string;
  errorsOnly?: boolean;
  okOnly?: boolean;
  minDurationMs?: number;
  /** One attribute's value, compared as text */
  attr?: { key: string; value: string };
  /** Rows strictly older than this (start, span id) in the listing's order */
  after?: { startUs: number; spanId: string };
  limit: number;
}

export function spansRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Inserts the spans not stored yet; answers the keys of those it inserted. */
    async insertNew(rows: NewSpan[]): Promise<Array<{ company_id: string; trace_id: string; span_id: string }>> {
      const out: Array<{ company_id: string; trace_id: string; span_id: string }> = [];
      for (let i = 0; i < rows.length; i += CHUNK) {
        const r = await k
          .insertInto('spans')
          .values(rows.slice(i, i + CHUNK))
          .onConflict((oc) => oc.columns(db.kind === 'postgres' ? PG_SPAN_KEY : SQLITE_SPAN_KEY).doNothing())
          .returning(['company_id', 'trace_id', 'span_id'])
          .execute();
        for (const x of r) out.push(x);
      }
      return out;
    },
    /** Error spans (or request spans), newest first. */
    search(s: TraceSearch): Promise<SpanRow[]> {
      let q = k.selectFrom('spans').selectAll().where('start_us', '>=', s.sinceUs);
      // Literal predicates, so the partial indexes (is_error = 1) apply.
      q = s.errorsOnly ? q.where(sql<boolean>`is_error = 1`) : q.where(sql<boolean>`is_request = 1`);
      if (s.companyId) q = q.where('company_id', '=', s.companyId);
      if (s.service) q = q.where('service', '=', s.service);
      if (s.operation) q = q.where('name', '=', s.operation);
      return q.orderBy('start_us', 'desc').orderBy('span_id').limit(s.limit).execute();
    },
    /** Request spans (is_request = 1) matching the filters, newest first. */
    findRequests(s: RequestSearch): Promise<SpanRow[]> {
      let q = k
        .selectFrom('spans')
        .selectAll()
        .where(sql<boolean>`is_request = 1`) // literal, so the partial index applies
        .where('start_us', '>=', s.fromUs)
        .where('start_us', '<', s.toUs);
      if (s.companyId) q = q.where('company_id', '=', s.companyId);
      if (s.service) q = q.where('service', '=', s.service);
      if (s.operation) q = q.where('name', '=', s.operation);
      if (s.errorsOnly) q = q.where('is_error', '=', true);
      if (s.okOnly) q = q.where('is_error', '=', false);
      if (s.minDurationMs !== undefined) q = q.where('duration_ms', '>=', s.minDurationMs);
      if (s.attr) {
        const { key, value } = s.attr;
        q = q.where(
          db.kind === 'postgres'
            ? sql<boolean>`(attributes::jsonb ->> ${key}) = ${value}`
            : sql<boolean>`cast(json_extract(attributes, ${'$."' + key + '"'}) as text) = ${value}`,
        );
      }
      if (s.after) {
        const { startUs, spanId } = s.after;
        q = q.where((eb) => eb.or([eb('start_us', '<', startUs), eb.and([eb('start_us', '=', startUs), eb('span_id', '<', spanId)])]));
      }
      return q.orderBy('start_us', 'desc').orderBy('span_id', 'desc').limit(s.limit).execute();
    },
    /** How many spans each of the traces holds (company-scoped unless null). */
    async spanCounts(companyId: string | null, traceIds: string[]): Promise<Map<string, number>> {
      if (traceIds.length === 0) return new Map();
      let q = k
        .selectFrom('spans')
        .select(['company_id', 'trace_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('trace_id', 'in', [...new Set(traceIds)]);
      if (companyId) q = q.where('company_id', '=', companyId);
      const rows = await q.groupBy(['company_id', 'trace_id']).execute();
      return new Map(rows.map((r) => [`${r.company_id}/${r.trace_id}`, Number(r.n)]));
    },
    /** Every span of a trace, by start time; null company = any company. */
    trace(traceId: string, companyId: string | null): Promise<SpanRow[]> {
      let q = k.selectFrom('spans').selectAll().where('trace_id', '=', traceId);
      if (companyId) q = q.where('company_id', '=', companyId);
      return q.orderBy('start_us').orderBy('span_id').limit(10_000).execute();
    },
    async countForCompany(companyId: string): Promise<number> {
      const r = await k
        .selectFrom('spans')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** Every span of a company (the company is being deleted; spans carry no foreign key). */
    async deleteForCompany(companyId: string): Promise<number> {
      const r = await k.deleteFrom('spans').where('company_id', '=', companyId).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async deleteOlderThan(companyId: string, beforeUs: number): Promise<number> {
      const r = await k.deleteFrom('spans').where('company_id', '=', companyId).where('start_us', '<', beforeUs).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
