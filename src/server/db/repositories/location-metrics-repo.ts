// SQL for the Prometheus figures by location (issue 27): each location's state of a company's
// monitors (monitor_location_states, for its scrape) and the probes of every location (for the
// operator's). A location is named by its slug, `local` for the built-in engine (number 0).
import { sql } from 'kysely';
import type { DbScope } from '../scope.ts';

export interface MonitorLocationMetricsRow {
  monitor_id: string;
  location: string;
  status: string;
  last_checked_at: number | null;
  last_response_time_ms: number | null;
}

export interface LocationProbesRow {
  slug: string;
  /** The owning company's subdomain for a private location; null for a public one */
  company_subdomain: string | null;
  probes_total: number;
  probes_online: number;
  offline: boolean;
  flagged: boolean;
}

export function locationMetricsRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Each location's state of the company's monitors checked from more than one location (or a remote one). */
    async statesOfCompany(companyId: string): Promise<MonitorLocationMetricsRow[]> {
      const rows = await k
        .selectFrom('monitor_location_states as s')
        .leftJoin('probe_locations as l', 'l.num', 's.location')
        .select(['s.monitor_id', 's.status', 's.last_checked_at', 's.last_response_time_ms', 's.location as num', 'l.slug'])
        .where('s.company_id', '=', companyId)
        .orderBy('s.monitor_id')
        .orderBy('s.location')
        .execute();
      // A deleted location's states wait for their monitor's next write; they are not reported.
      return rows
        .filter((r) => Number(r.num) === 0 || r.slug !== null)
        .map((r) => ({
          monitor_id: r.monitor_id,
          location: Number(r.num) === 0 ? 'local' : r.slug!,
          status: r.status,
          last_checked_at: r.last_checked_at === null ? null : Number(r.last_checked_at),
          last_response_time_ms: r.last_response_time_ms,
        }));
    },
    /** Every location with its probes' counts (online: seen since `onlineSince`) and its health. */
    async probesByLocation(onlineSince: number): Promise<LocationProbesRow[]> {
      const rows = await k
        .selectFrom('probe_locations as l')
        .leftJoin('companies as c', 'c.id', 'l.company_id')
        .select(['l.slug', 'c.subdomain as company_subdomain', 'l.offline_since', 'l.flagged_since'])
        .select((eb) => [
          eb.selectFrom('probes as p').whereRef('p.location_id', '=', 'l.id').select(sql<number>`count(*)`.as('n')).as('probes_total'),
          eb
            .selectFrom('probes as p')
            .whereRef('p.location_id', '=', 'l.id')
            .where('p.last_seen_at', '>=', onlineSince)
            .select(sql<number>`count(*)`.as('n'))
            .as('probes_online'),
        ])
        .orderBy('l.num')
        .execute();
      return rows.map((r) => ({
        slug: r.slug,
        company_subdomain: r.company_subdomain ?? null,
        probes_total: Number(r.probes_total ?? 0),
        probes_online: Number(r.probes_online ?? 0),
        offline: r.offline_since !== null,
        flagged: r.flagged_since !== null,
      }));
    },
  };
}
