// SQL for reading where monitors are checked from (issue 27): the locations a company sees with
// whether each is online, the companies' default sets, and the per-location states the result
// writer keeps in monitor_location_states (read here, written by engine/result-writer.ts).
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { MonitorLocationStatesTable } from '../schema/monitoring.ts';

export type LocationStateRow = Selectable<MonitorLocationStatesTable>;

/** A stored location as a company's monitors name it. */
export interface KnownLocationRow {
  num: number;
  slug: string;
  name: string;
  /** null: public */
  company_id: string | null;
  /** one of its probes called at or after the `onlineSince` asked for */
  online: boolean;
}

export function locationStatusRepo(db: DbScope) {
  const k = db.k;
  return {
    /** The public locations and the private ones of these companies, each with whether it is online. */
    async visibleTo(companyIds: readonly string[], onlineSince: number): Promise<KnownLocationRow[]> {
      const rows = await k
        .selectFrom('probe_locations as l')
        .select(['l.num', 'l.slug', 'l.name', 'l.company_id'])
        .select((eb) =>
          eb
            .exists(
              eb.selectFrom('probes as p').select('p.id').whereRef('p.location_id', '=', 'l.id').where('p.last_seen_at', '>=', onlineSince),
            )
            .as('online'),
        )
        .where((eb) =>
          companyIds.length
            ? eb.or([eb('l.company_id', 'is', null), eb('l.company_id', 'in', [...companyIds])])
            : eb('l.company_id', 'is', null),
        )
        .orderBy('l.num')
        .execute();
      // SQLite answers exists() with 0/1, PostgreSQL with a boolean.
      return rows.map((r) => ({ ...r, num: Number(r.num), online: Boolean(r.online) }));
    },
    /** Each company's default set as stored (JSON text or null). */
    async companyDefaults(companyIds: readonly string[]): Promise<Map<string, string | null>> {
      if (companyIds.length === 0) return new Map();
      const rows = await k
        .selectFrom('companies')
        .select(['id', 'default_locations'])
        .where('id', 'in', [...companyIds])
        .execute();
      return new Map(rows.map((r) => [r.id, r.default_locations]));
    },
    /** The per-location states of these monitors. */
    statesOf(monitorIds: readonly string[]): Promise<LocationStateRow[]> {
      if (monitorIds.length === 0) return Promise.resolve([]);
      return k
        .selectFrom('monitor_location_states')
        .selectAll()
        .where('monitor_id', 'in', [...monitorIds])
        .execute();
    },
  };
}
