// A monitor checked from several locations: each location's response times over the chart's
// range, beside the monitor's own (the total). Per hour from the per-location hourly rollups
// (per day for 30 d and 90 d, the hours summed), or check by check for the `checks` range.
// Empty for a monitor checked by the built-in engine alone (it has no per-location rows).
import { LOCAL_LOCATION } from '../../../lib/probe-locations.ts';
import { LatencySketch } from '../../../lib/latency-sketch.ts';
import { dayStart } from '../../../lib/timeline.ts';
import type { CheckRow } from '../../db/repositories/checks-repo.ts';
import { locationRollupsRepo } from '../../db/repositories/location-rollups-repo.ts';
import { probeLocationsRepo } from '../../db/repositories/probe-locations-repo.ts';
import type { DbScope } from '../../db/scope.ts';
import { responseQuantile } from '../../engine/rollup-math.ts';
import { toIso } from '../ids.ts';

export interface LocationPoint {
  start: string;
  avg: number | null;
  p95: number | null;
  checks: number;
  failures: number;
}

export interface LocationSeries {
  slug: string;
  name: string;
  points: LocationPoint[];
}

const round2 = (x: number) => Math.round(x * 100) / 100;

async function named(db: DbScope, nums: number[]): Promise<Map<number, { slug: string; name: string }>> {
  const names = await probeLocationsRepo(db).namesOf(nums.filter((n) => n !== 0));
  names.set(0, { slug: LOCAL_LOCATION.slug, name: LOCAL_LOCATION.name });
  return names;
}

const nameOf = (names: Map<number, { slug: string; name: string }>, num: number) =>
  names.get(num) ?? { slug: `deleted-${num}`, name: `Deleted location ${num}` };

/** Per period (`starts`, each `step` long; days when `daily`), one series per location with rows. */
export async function locationSeries(
  db: DbScope,
  monitorId: string,
  starts: number[],
  step: number,
  daily: boolean,
): Promise<LocationSeries[]> {
  if (starts.length === 0) return [];
  const rows = await locationRollupsRepo(db).range([monitorId], starts[0], starts[starts.length - 1] + step);
  if (rows.length === 0) return [];
  const byLocation = new Map<
    number,
    Map<number, { sketch: LatencySketch; sum: number; min: number | null; max: number | null; checks: number; failures: number }>
  >();
  for (const r of rows) {
    const period = daily ? dayStart(r.start) : r.start;
    const of = byLocation.get(r.location) ?? new Map();
    byLocation.set(r.location, of);
    const p = of.get(period) ?? { sketch: new LatencySketch(), sum: 0, min: null, max: null, checks: 0, failures: 0 };
    of.set(period, p);
    p.sketch.mergeText(r.response_sketch);
    p.sum += r.sum_response_ms;
    if (r.min_response_ms !== null) p.min = p.min === null ? r.min_response_ms : Math.min(p.min, r.min_response_ms);
    if (r.max_response_ms !== null) p.max = p.max === null ? r.max_response_ms : Math.max(p.max, r.max_response_ms);
    p.checks += r.checks;
    p.failures += r.failures;
  }
  const names = await named(db, [...byLocation.keys()]);
  return [...byLocation.entries()]
    .sort(([a], [b]) => a - b)
    .map(([num, periods]) => ({
      ...nameOf(names, num),
      points: starts.map((start) => {
        const p = periods.get(start);
        const timed = p?.sketch.total ?? 0;
        return {
          start: toIso(start),
          avg: p && timed > 0 ? round2(p.sum / timed) : null,
          p95: p && timed > 0 ? responseQuantile(p.sketch, 0.95, p.min, p.max) : null,
          checks: p?.checks ?? 0,
          failures: p?.failures ?? 0,
        };
      }),
    }));
}

/** The `checks` range: the latest checks one by one, split by the location that ran each. */
export async function locationChecks(db: DbScope, rows: CheckRow[]): Promise<LocationSeries[]> {
  const nums = [...new Set(rows.map((r) => Number(r.location ?? 0)))];
  if (nums.length <= 1 && (nums[0] ?? 0) === 0) return [];
  const names = await named(db, nums);
  return nums
    .sort((a, b) => a - b)
    .map((num) => ({
      ...nameOf(names, num),
      points: rows
        .filter((r) => Number(r.location ?? 0) === num)
        .map((r) => ({
          start: toIso(Number(r.checked_at)),
          avg: r.response_time_ms === null ? null : round2(Number(r.response_time_ms)),
          p95: null,
          checks: 1,
          failures: r.status === 'down' ? 1 : 0,
        })),
    }));
}
