// Where monitors are checked from (issue 27): the locations a company sees, a monitor's effective
// set, and its `location_status` view. The rules themselves (what a list or quorum may be) are in
// src/lib/monitor-locations.ts, shared with the console.
import { effectiveList, parseSlugList } from '../../../lib/monitor-locations.ts';
import { BROWSER_PROBE_SEEN_MS, LOCAL_LOCATION } from '../../../lib/probe-locations.ts';
import { probesRepo } from '../../db/repositories/probes-repo.ts';
import { companyDefaultLocations, locationsSeenBy } from '../../db/repositories/location-catalog-repo.ts';
import { locationStatesRepo } from '../../db/repositories/location-states-repo.ts';
import { monitorLocationsRepo } from '../../db/repositories/monitor-locations-repo.ts';
import type { MonitorWithTenant } from '../../db/repositories/monitors-repo.ts';
import type { CheckStatus } from '../../db/schema/monitoring.ts';
import type { DbScope } from '../../db/scope.ts';
import { toIsoOrNull } from '../ids.ts';
import { locationRollupsRepo } from '../../db/repositories/location-rollups-repo.ts';
import { uptimePercent } from '../../engine/rollup-math.ts';
import { HOUR_MS, hourStart } from '../../../lib/timeline.ts';

/** A location as one company's monitors name it. */
export interface LocationRef {
  /** 0 for `local`, else probe_locations.num */
  num: number;
  slug: string;
  name: string;
  private: boolean;
  online: boolean;
}

export interface LocationStatusView {
  slug: string;
  name: string;
  private: boolean;
  online: boolean;
  status: CheckStatus;
  last_checked_at: string | null;
  response_time: number | null;
  last_error: string | null;
  /** This location's own uptime over the last 24 hours (its raw checks); null without checks (local-only monitors: the monitor's) */
  uptime_24h: number | null;
}

const LOCAL_REF: LocationRef = {
  num: 0,
  slug: LOCAL_LOCATION.slug,
  name: LOCAL_LOCATION.name,
  private: false,
  online: true,
};

/** What some companies see: per company, its locations by slug; and each company's default set. */
export interface LocationCatalog {
  known(companyId: string): Map<string, LocationRef>;
  defaultOf(companyId: string): string[] | null;
}

export async function locationCatalog(db: DbScope, companyIds: readonly string[], now: number): Promise<LocationCatalog> {
  const ids = [...new Set(companyIds)];
  // The same reads the result writer judges by (repositories/location-catalog-repo.ts).
  const seen = await locationsSeenBy(db, ids, now);
  const defaults = await companyDefaultLocations(db, ids);
  const cache = new Map<string, Map<string, LocationRef>>();
  return {
    known(companyId) {
      let m = cache.get(companyId);
      if (!m) {
        m = new Map([[LOCAL_REF.slug, LOCAL_REF]]);
        for (const r of seen.locations)
          if (r.company_id === null || r.company_id === companyId)
            m.set(r.slug, {
              num: r.num,
              slug: r.slug,
              name: r.name,
              private: r.company_id !== null,
              online: seen.online.has(r.num),
            });
        cache.set(companyId, m);
      }
      return m;
    },
    defaultOf: (companyId) => parseSlugList(defaults.get(companyId)),
  };
}

/**
 * The slugs (of `known`) a browser monitor may name: the built-in engine, and each location with a
 * probe that runs browsers seen within a day. Read only when a monitor is saved, not for views.
 */
export async function browserSlugs(db: DbScope, known: ReadonlyMap<string, LocationRef>, now: number): Promise<Set<string>> {
  const nums = await probesRepo(db).locationsWith('browser', now - BROWSER_PROBE_SEEN_MS);
  return new Set([...known.values()].filter((r) => r.num === 0 || nums.has(r.num)).map((r) => r.slug));
}

/** The monitor's effective locations that resolve (a slug that no longer does is left out). */
export function effectiveRefs(catalog: LocationCatalog, m: Pick<MonitorWithTenant, 'company_id' | 'locations'>): LocationRef[] {
  const known = catalog.known(m.company_id);
  return effectiveList(parseSlugList(m.locations), catalog.defaultOf(m.company_id))
    .map((s) => known.get(s))
    .filter((r): r is LocationRef => r !== undefined);
}

/**
 * Each monitor's `location_status`: a local-only monitor's one entry is its own row (it keeps its
 * state there alone, as before issue 27); the others' come from monitor_location_states, and a
 * location with no state yet reads unknown.
 */
export async function locationStatuses(
  db: DbScope,
  rows: MonitorWithTenant[],
  now: number,
): Promise<(m: MonitorWithTenant) => LocationStatusView[]> {
  const companies = [...new Set(rows.map((m) => m.company_id))];
  // Most installs name no location anywhere: one query, and every monitor's entry is its row.
  const defaults = await companyDefaultLocations(db, companies);
  if (!rows.some((m) => m.locations !== null || (defaults.get(m.company_id) ?? null) !== null)) return (m) => [ownRow(m)];
  const catalog = await locationCatalog(db, companies, now);
  const refs = new Map(rows.map((m) => [m.id, effectiveRefs(catalog, m)]));
  const multi = rows.filter((m) => !isLocalOnly(refs.get(m.id) ?? [])).map((m) => m.id);
  const states = await locationStatesRepo(db).ofMonitors(multi);
  const stateOf = new Map(states.map((s) => [`${s.monitor_id}:${s.location}`, s]));
  // Each location's own last 24 hours, from its hourly rollups (the current hour included).
  const hours = new Map<string, Array<{ checks: number; failures: number; maintenance: number }>>();
  for (const r of await locationRollupsRepo(db).range(multi, hourStart(now) - 23 * HOUR_MS, now + 1)) {
    const key = `${r.monitor_id}:${r.location}`;
    hours.set(key, [...(hours.get(key) ?? []), r]);
  }
  return (m) => {
    const mine = refs.get(m.id) ?? [];
    if (isLocalOnly(mine)) return [ownRow(m)];
    return mine.map((r) => {
      const s = stateOf.get(`${m.id}:${r.num}`);
      return {
        ...refView(r),
        status: s?.status ?? 'unknown',
        last_checked_at: toIsoOrNull(s?.last_checked_at ?? null),
        response_time: s?.last_response_time_ms ?? null,
        last_error: s?.last_error ?? null,
        uptime_24h: uptimePercent(hours.get(`${m.id}:${r.num}`) ?? []),
      };
    });
  };
}

/** A local-only monitor's one location: its own row, where it keeps its state. */
const ownRow = (m: MonitorWithTenant): LocationStatusView => ({
  ...refView(LOCAL_REF),
  status: m.status,
  last_checked_at: toIsoOrNull(m.last_checked_at),
  response_time: m.last_response_time_ms,
  last_error: m.last_error,
  uptime_24h: null,
});

const isLocalOnly = (refs: LocationRef[]) => refs.length === 0 || (refs.length === 1 && refs[0].num === 0);

const refView = (r: LocationRef) => ({ slug: r.slug, name: r.name, private: r.private, online: r.online });

/**
 * A location is being deleted: the monitors naming it drop its slug (a list left empty becomes
 * null, the company's default set), and so do the companies' default sets; `run_local` follows.
 * A public location may be named by any company, a private one only by its own. Run it in the
 * deleting transaction.
 */
export async function dropLocationSlug(tx: DbScope, slug: string, companyId: string | null, now: number): Promise<number> {
  const repo = monitorLocationsRepo(tx);
  const without = (text: string | null) => {
    const list = parseSlugList(text);
    return list?.includes(slug) ? list.filter((s) => s !== slug) : null;
  };
  const defaults = new Map<string, string[] | null>();
  for (const c of await repo.companiesNaming(slug, companyId)) {
    const rest = without(c.default_locations);
    if (!rest) continue;
    const next = rest.length ? rest : null;
    defaults.set(c.id, next);
    await repo.setCompanyDefault(c.id, next === null ? null : JSON.stringify(next));
    await repo.setRunLocalForDefault(c.id, effectiveList(null, next).includes(LOCAL_LOCATION.slug));
    await repo.clearQuorumAbove(c.id, effectiveList(null, next).length);
  }
  let changed = 0;
  for (const m of await repo.monitorsNaming(slug, companyId)) {
    const rest = without(m.locations);
    if (!rest) continue;
    const next = rest.length ? rest : null;
    const companyDefault = defaults.has(m.company_id)
      ? (defaults.get(m.company_id) ?? null)
      : parseSlugList((await companyDefaultLocations(tx, [m.company_id])).get(m.company_id));
    const runLocal = effectiveList(next, companyDefault).includes(LOCAL_LOCATION.slug);
    // Its quorum was chosen for the longer list: majority again, rather than a quorum out of range.
    await repo.setMonitorLocations(m.id, next === null ? null : JSON.stringify(next), null, runLocal, now);
    changed++;
  }
  return changed;
}
