// What the result writer needs to judge monitors checked from several locations: each company's
// default set, the locations those companies see (public ones and their own private ones) with
// their numbers, and which of them have a probe online.
import { PROBE_ONLINE_MS } from '../../../lib/probe-locations.ts';
import type { DbScope } from '../scope.ts';

export interface CatalogLocation {
  num: number;
  slug: string;
  name: string;
  /** null: public */
  company_id: string | null;
}

export interface LocationCatalog {
  /** company id → its default set as stored (JSON text; null: local) */
  defaults: Map<string, string | null>;
  /** Remote locations the companies see */
  locations: CatalogLocation[];
  /** Numbers of the remote locations with a probe seen within PROBE_ONLINE_MS, and neither offline nor flagged */
  online: Set<number>;
  /** Locations whose checks all fail while others see the same monitors up (the per-location canary) */
  flagged: Set<number>;
}

export async function companyDefaultLocations({ k }: DbScope, companyIds: string[]): Promise<Map<string, string | null>> {
  if (companyIds.length === 0) return new Map();
  const rows = await k.selectFrom('companies').select(['id', 'default_locations']).where('id', 'in', companyIds).execute();
  return new Map(rows.map((r) => [r.id, r.default_locations]));
}

/** The remote locations these companies see, and which are online at `now`. */
export async function locationsSeenBy(db: DbScope, companyIds: string[], now: number): Promise<Omit<LocationCatalog, 'defaults'>> {
  const locations = (
    await db.k
      .selectFrom('probe_locations')
      .select(['num', 'slug', 'name', 'company_id', 'flagged_since', 'offline_since'])
      .where((eb) => eb.or([eb('company_id', 'is', null), ...(companyIds.length ? [eb('company_id', 'in', companyIds)] : [])]))
      .execute()
  ).map((l) => ({ ...l, num: Number(l.num) }));
  const seen = await db.k
    .selectFrom('probes as p')
    .innerJoin('probe_locations as l', 'l.id', 'p.location_id')
    .select('l.num')
    .where('p.last_seen_at', '>=', now - PROBE_ONLINE_MS)
    .groupBy('l.num')
    .execute();
  // An offline or flagged location (the probe-health job's verdict) counts neither way, even
  // while a probe of it still calls.
  const flagged = new Set(locations.filter((l) => l.flagged_since !== null).map((l) => l.num));
  const offline = new Set(locations.filter((l) => l.offline_since !== null).map((l) => l.num));
  return {
    locations: locations.map(({ flagged_since: _f, offline_since: _o, ...l }) => l),
    online: new Set(seen.map((s) => Number(s.num)).filter((n) => !flagged.has(n) && !offline.has(n))),
    flagged,
  };
}
