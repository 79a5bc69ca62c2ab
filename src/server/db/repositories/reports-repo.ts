// SQL of the SLA report: a company's monitors, their daily rollups over whole UTC days, and the
// incidents about them that overlap the range. Never raw check results.
import { sql } from 'kysely';
import type { DbScope } from '../scope.ts';
import { rollupsWithMonitors } from './rollups-repo.ts';

export interface ReportMonitorRow {
  id: string;
  name: string;
  interval_seconds: number;
  sla_target: number | null;
}

/** One day of one monitor: the counts and what its latency figures come from. */
export interface ReportRollupRow {
  monitor_id: string;
  checks: number;
  failures: number;
  maintenance: number;
  /** The latency figures (src/lib/rollup-detail.ts; domain/reports/latency.ts reads them) */
  data: Uint8Array;
}

export interface ReportIncidentRow {
  monitor_id: string;
  id: string;
  title: string;
  started_at: number;
  resolved_at: number | null;
}

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export function reportsRepo(db: DbScope) {
  const k = db.k;
  return {
    /** The company's monitors (archived ones too: they ran in the range), optionally only these ids. */
    async monitors(companyId: string, ids: string[] | null): Promise<ReportMonitorRow[]> {
      let q = k
        .selectFrom('monitors')
        .select(['id', 'name', 'interval_seconds', 'sla_target'])
        .where('company_id', '=', companyId)
        .orderBy('name')
        .orderBy('id');
      if (ids) q = q.where('id', 'in', ids.length > 0 ? ids : ['']);
      const rows = await q.execute();
      return rows.map((r) => ({ ...r, interval_seconds: num(r.interval_seconds), sla_target: numOrNull(r.sla_target) }));
    },
    /**
     * The company's daily rollups with day_start in [from, to). The rows are used as the driver
     * answers them (a year of 1,000 monitors is 365,000 rows: no copy); counts are integers on
     * both databases, so they arrive as numbers.
     */
    /** Per-location hourly rollups of the company's monitors in [from, to), with the location's slug and name (null: local). */
    locationRollups(
      companyId: string,
      from: number,
      to: number,
    ): Promise<Array<ReportRollupRow & { location: number; slug: string | null; location_name: string | null }>> {
      return db.k
        .selectFrom('monitor_location_rollups_hourly as r')
        .innerJoin('monitors as m', 'm.num', 'r.monitor_num')
        .leftJoin('probe_locations as l', 'l.num', 'r.location')
        .select([
          'm.id as monitor_id',
          'r.location',
          'l.slug',
          'l.name as location_name',
          'r.checks',
          'r.failures',
          'r.maintenance',
          'r.data',
        ])
        .where('m.company_id', '=', companyId)
        .where('r.hour_start', '>=', from)
        .where('r.hour_start', '<', to)
        .execute();
    },
    dailyRollups(companyId: string, from: number, to: number): Promise<ReportRollupRow[]> {
      return rollupsWithMonitors(db, 'daily')
        .select(['m.id as monitor_id', 'r.checks', 'r.failures', 'r.maintenance', 'r.data'])
        .where('m.company_id', '=', companyId)
        .where(sql.ref('r.day_start'), '>=', from)
        .where(sql.ref('r.day_start'), '<', to)
        .execute();
    },
    /**
     * The company's latest data since `since`: the start of its last day with checks, or its last
     * incident's start, whichever is later (null: none). Only these monitors when ids are given.
     */
    async latestDataAt(companyId: string, ids: string[] | null, since: number): Promise<number | null> {
      let days = rollupsWithMonitors(db, 'daily')
        .select((eb) => eb.fn.max(sql.ref<number>('r.day_start')).as('at'))
        .where('m.company_id', '=', companyId)
        .where(sql.ref('r.day_start'), '>=', since)
        .where(sql.ref('r.checks'), '>', 0);
      let incidents = k
        .selectFrom('incident_monitors as im')
        .innerJoin('incidents as i', 'i.id', 'im.incident_id')
        .select((eb) => eb.fn.max('i.started_at').as('at'))
        .where('im.company_id', '=', companyId)
        .where('i.started_at', '>=', since);
      if (ids) {
        const list = ids.length > 0 ? ids : [''];
        days = days.where('m.id', 'in', list);
        incidents = incidents.where('im.monitor_id', 'in', list);
      }
      const [d, i] = await Promise.all([days.executeTakeFirst(), incidents.executeTakeFirst()]);
      const found = [d?.at, i?.at].filter((v) => v !== null && v !== undefined).map(Number);
      return found.length ? Math.max(...found) : null;
    },
    /** Incidents about the company's monitors that were open at some time in [from, to), per monitor. */
    async incidents(companyId: string, from: number, to: number): Promise<ReportIncidentRow[]> {
      const rows = await k
        .selectFrom('incident_monitors as im')
        .innerJoin('incidents as i', 'i.id', 'im.incident_id')
        .select(['im.monitor_id', 'i.id', 'i.title', 'i.started_at', 'i.resolved_at'])
        .where('im.company_id', '=', companyId)
        .where('i.started_at', '<', to)
        .where((eb) => eb.or([eb('i.resolved_at', 'is', null), eb('i.resolved_at', '>', from)]))
        .execute();
      return rows.map((r) => ({ ...r, started_at: num(r.started_at), resolved_at: numOrNull(r.resolved_at) }));
    },
  };
}
