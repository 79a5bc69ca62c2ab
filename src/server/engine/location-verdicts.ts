// Monitors checked from more than one location (or from a remote one): inside the result
// writer's transaction, each result moves its location's own state machine (with the monitor's
// confirmations), and the monitor's status becomes the quorum's verdict over its locations
// (src/lib/quorum.ts). A monitor checked by the built-in engine alone has no plan here and keeps
// its state on its row exactly as before.
import { effectiveSlugs, quorumVerdict, type LocationVote, type Verdict } from '../../lib/quorum.ts';
import { LOCAL_LOCATION } from '../../lib/probe-locations.ts';
import type { CheckStatus } from '../db/schema/monitoring.ts';
import type { MonitorRow } from '../db/repositories/monitors-repo.ts';
import { companyDefaultLocations, locationsSeenBy } from '../db/repositories/location-catalog-repo.ts';
import { locationStatesRepo, type LocationStateRow } from '../db/repositories/location-states-repo.ts';
import type { DbScope } from '../db/scope.ts';
import { applyResult } from './state-machine.ts';

export interface PlannedLocation {
  num: number;
  slug: string;
  name: string;
  /** local, or a probe of it seen within PROBE_ONLINE_MS */
  online: boolean;
  /** Its checks all fail while other locations see the same monitors up: it counts neither way */
  flagged: boolean;
}

/** A monitor's resolved locations; absent from the map: checked by the built-in engine alone. */
export type LocationPlans = Map<string, PlannedLocation[]>;

const LOCAL: PlannedLocation = { num: 0, slug: LOCAL_LOCATION.slug, name: LOCAL_LOCATION.name, online: true, flagged: false };

/**
 * The plans of these monitors. Costs one query when no monitor and no company names a location
 * (every monitor on the built-in engine alone), three more otherwise. A location offline or
 * flagged by the probe-health job is not online (location-catalog-repo.ts).
 */
export async function locationPlans(tx: DbScope, monitors: MonitorRow[], now: number): Promise<LocationPlans> {
  const plans: LocationPlans = new Map();
  const companies = [...new Set(monitors.map((m) => m.company_id))];
  const defaults = await companyDefaultLocations(tx, companies);
  const named = monitors.filter((m) => m.locations !== null || (defaults.get(m.company_id) ?? null) !== null);
  if (named.length === 0) return plans;
  const seen = await locationsSeenBy(tx, [...new Set(named.map((m) => m.company_id))], now);
  for (const m of named) {
    const slugs = effectiveSlugs(m.locations, defaults.get(m.company_id) ?? null);
    if (slugs.length === 1 && slugs[0] === LOCAL.slug) continue;
    const resolved: PlannedLocation[] = [];
    for (const slug of new Set(slugs)) {
      if (slug === LOCAL.slug) {
        resolved.push(LOCAL);
        continue;
      }
      // The company's private location of that slug, else the public one.
      const l =
        seen.locations.find((x) => x.slug === slug && x.company_id === m.company_id) ??
        seen.locations.find((x) => x.slug === slug && x.company_id === null);
      if (l) resolved.push({ num: l.num, slug: l.slug, name: l.name, online: seen.online.has(l.num), flagged: seen.flagged.has(l.num) });
    }
    // Every named location gone (deleted): the monitor has nothing to judge by; its results
    // are refused below like any other location's that it does not name.
    plans.set(m.id, resolved);
  }
  return plans;
}

/** Whether the monitor takes a result from this location (a location it no longer names: no). */
export function takesResult(plans: LocationPlans, monitorId: string, location: number): boolean {
  const plan = plans.get(monitorId);
  return plan ? plan.some((l) => l.num === location) : location === 0;
}

export interface LocationStep {
  verdict: Verdict;
  /** The location's name, for the monitor's last error */
  locationName: string;
}

/**
 * Holds the batch's location states in memory: `step` applies one result (in time order per
 * monitor) and answers the verdict after it; `rows` gives the states to write once.
 */
export async function locationJudge(tx: DbScope, plans: LocationPlans, now: number) {
  const key = (monitorId: string, location: number) => `${monitorId}:${location}`;
  const states = new Map<string, LocationStateRow>();
  for (const r of await locationStatesRepo(tx).ofMonitors([...plans.keys()])) states.set(key(r.monitor_id, r.location), r);
  const touched = new Set<string>();
  return {
    step(
      m: Pick<MonitorRow, 'id' | 'company_id' | 'confirmations' | 'quorum'>,
      location: number,
      result: {
        status: Exclude<CheckStatus, 'unknown'>;
        checkedAt: number;
        responseTimeMs: number | null;
        httpCode: number | null;
        error: string | null;
      },
    ): LocationStep {
      const plan = plans.get(m.id)!;
      const k = key(m.id, location);
      const prev: LocationStateRow = states.get(k) ?? {
        monitor_id: m.id,
        location,
        company_id: m.company_id,
        status: 'unknown',
        status_since: null,
        pending_status: null,
        pending_count: 0,
        last_checked_at: null,
        last_status: null,
        last_response_time_ms: null,
        last_http_code: null,
        last_error: null,
        updated_at: now,
      };
      const t = applyResult(
        {
          status: prev.status,
          statusSince: prev.status_since,
          pendingStatus: prev.pending_status,
          pendingCount: prev.pending_count,
          confirmations: m.confirmations,
          incidentOpen: false,
        },
        result.status,
        result.checkedAt,
        true, // a location opens no incident of its own: the monitor's verdict does
      );
      states.set(k, {
        ...prev,
        status: t.state.status,
        status_since: t.state.statusSince,
        pending_status: t.state.pendingStatus,
        pending_count: t.state.pendingCount,
        last_checked_at: result.checkedAt,
        last_status: result.status,
        last_response_time_ms: result.responseTimeMs,
        last_http_code: result.httpCode,
        last_error: result.error,
        updated_at: now,
      });
      touched.add(k);
      const votes: LocationVote[] = plan.map((l) => ({
        num: l.num,
        slug: l.slug,
        name: l.name,
        status: states.get(key(m.id, l.num))?.status ?? 'unknown',
        // The location that just sent a result is there, whatever its probe's last call says.
        online: (l.online || l.num === location) && !l.flagged,
      }));
      return { verdict: quorumVerdict(votes, m.quorum), locationName: plan.find((l) => l.num === location)?.name ?? String(location) };
    },
    rows(): LocationStateRow[] {
      return [...touched].map((k) => states.get(k)!);
    },
  };
}
