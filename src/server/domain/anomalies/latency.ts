// Latency anomalies of one company now (issue 33, item 2): each monitor's hourly median response
// time, each of its locations' when it is checked from several, and each busy API endpoint's
// (the OTLP endpoint rollups), through the pure seasonal detector (src/lib/latency-anomaly.ts).
// The medians come from the latency sketches the hourly rollups store already.
import { currentEpisode, HOUR_MS, type DetectorOptions, type Episode, type LatencyPoint } from '../../../lib/latency-anomaly.ts';
import { LatencySketch } from '../../../lib/latency-sketch.ts';
import { anomaliesRepo, type WatchedMonitor } from '../../db/repositories/anomalies-repo.ts';
import { locationRollupsRepo } from '../../db/repositories/location-rollups-repo.ts';
import { rollupsRepo } from '../../db/repositories/rollups-repo.ts';
import type { DbScope } from '../../db/scope.ts';
import { toIso } from '../ids.ts';
import type { Finding } from './finding.ts';

/** Windows judged each run: an episode older than this is already open (its start is stored). */
const JUDGED_MS = 48 * HOUR_MS;
/** An hour's median needs a few timed answers: one slow check is not the hour. */
const MIN_ANSWERS = 3;
/** The busiest endpoints of the last day are watched, at most this many per company. */
const MAX_ENDPOINTS = 100;
const MONITOR_BATCH = 50;

const medianOf = (sketchText: string): number | null => {
  const s = LatencySketch.parse(sketchText);
  return s.total >= MIN_ANSWERS ? s.quantile(0.5) : null;
};

const round = (v: number) => Math.round(v * 10) / 10;

function finding(
  subject: string,
  what: string,
  source: { label: string; href: string },
  monitorId: string | null,
  ep: Episode,
  o: DetectorOptions,
  extra: Record<string, string>,
): Finding {
  const w = ep.worst;
  const b = w.baseline!;
  const last = ep.windows[ep.windows.length - 1];
  const hours = (last.start + o.windowMs - ep.start) / HOUR_MS;
  const season = b.season === 'hour_of_week' ? 'this hour on this weekday' : 'this hour of the day';
  return {
    kind: 'latency',
    subject,
    monitorId,
    what,
    title: `${what} is slower than usual`,
    startedAt: ep.start,
    severity: 'medium',
    href: source.href,
    evidence: [
      {
        kind: 'latency_anomaly',
        summary: `Median response time ${round(w.value)} ms, usually ${round(b.level)} ms at ${season} (${round(w.deviation ?? 0)} times the usual spread); slow for ${hours} ${hours === 1 ? 'hour' : 'hours'} in a row.`,
        at: toIso(w.start),
        source,
        data: {
          observed_ms: round(w.value),
          baseline_ms: round(b.level),
          spread_ms: round(b.spread),
          deviation: round(w.deviation ?? 0),
          window_start: toIso(w.start),
          window_end: toIso(w.start + o.windowMs),
          window_minutes: o.windowMs / 60_000,
          anomalous_windows: ep.windows.length,
          since: toIso(ep.start),
          season: b.season,
          baseline_samples: b.samples,
          ...extra,
        },
      },
    ],
  };
}

export async function latencyFindings(db: DbScope, companyId: string, now: number, o: DetectorOptions): Promise<Finding[]> {
  const repo = anomaliesRepo(db);
  const from = now - JUDGED_MS;
  const historyFrom = from - o.lookbackMs;
  const out: Finding[] = [];
  const judge = (series: LatencyPoint[]) => currentEpisode(series, from, now, o);

  const monitors = await repo.monitors(companyId);
  const names = monitors.length ? await repo.locationNames(companyId) : new Map<number, string>();
  for (let i = 0; i < monitors.length; i += MONITOR_BATCH) {
    const batch = monitors.slice(i, i + MONITOR_BATCH);
    const byId = new Map<string, WatchedMonitor>(batch.map((m) => [m.id, m]));
    const ids = [...byId.keys()];
    const own = new Map<string, LatencyPoint[]>();
    for (const r of await rollupsRepo(db).range('hourly', ids, historyFrom, now)) {
      const v = medianOf(r.response_sketch);
      if (v !== null) own.set(r.monitor_id, [...(own.get(r.monitor_id) ?? []), { start: r.start, value: v }]);
    }
    for (const [id, series] of own) {
      const ep = judge(series);
      const m = byId.get(id)!;
      if (ep) out.push(finding(`monitor:${id}`, m.name, { label: m.name, href: `/monitors/${id}` }, id, ep, o, {}));
    }
    const perLocation = new Map<string, Map<number, LatencyPoint[]>>();
    for (const r of await locationRollupsRepo(db).range(ids, historyFrom, now)) {
      const v = medianOf(r.response_sketch);
      if (v === null) continue;
      const locs = perLocation.get(r.monitor_id) ?? new Map<number, LatencyPoint[]>();
      perLocation.set(r.monitor_id, locs);
      locs.set(r.location, [...(locs.get(r.location) ?? []), { start: r.start, value: v }]);
    }
    // One location slow while the others are not is what the monitor's own median hides.
    for (const [id, locs] of perLocation) {
      if (locs.size < 2) continue;
      const m = byId.get(id)!;
      for (const [loc, series] of locs) {
        const ep = judge(series);
        const place = names.get(loc) ?? (loc === 0 ? 'Local' : `location ${loc}`);
        if (ep) {
          out.push(
            finding(`monitor:${id}@${loc}`, `${m.name} from ${place}`, { label: m.name, href: `/monitors/${id}` }, id, ep, o, {
              location: place,
            }),
          );
        }
      }
    }
  }

  const endpoints = new Map<string, { service: string; method: string; route: string; series: LatencyPoint[] }>();
  for (const r of await repo.endpointHours(companyId, historyFrom, now, now - 24 * HOUR_MS, MAX_ENDPOINTS)) {
    const v = r.requests >= MIN_ANSWERS ? medianOf(r.hist) : null;
    if (v === null) continue;
    const key = `${r.service} ${r.method} ${r.route}`;
    const e = endpoints.get(key) ?? { service: r.service, method: r.method, route: r.route, series: [] };
    endpoints.set(key, e);
    e.series.push({ start: r.start, value: v });
  }
  for (const [key, e] of endpoints) {
    const ep = judge(e.series);
    const name = `${e.method} ${e.route} (${e.service})`;
    if (ep)
      out.push(
        finding(`endpoint:${key}`, name, { label: 'API intelligence', href: '/api-intelligence' }, null, ep, o, {
          service: e.service,
          method: e.method,
          route: e.route,
        }),
      );
  }
  return out;
}
