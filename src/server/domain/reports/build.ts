// Builds a company's SLA report for a range of whole UTC days from its daily rollups and
// incidents (lib/sla-report.ts does the arithmetic). No permission check: the API verb
// (sla.ts) and the schedule job (schedules-send.ts) check who may read it before calling.
import {
  companyTotal,
  locationLine,
  monitorLine,
  type MonitorCounts,
  type ReportRange,
  type SlaFigures,
  type SlaMonitorLine,
} from '../../../lib/sla-report.ts';
import { isoDate } from '../../../lib/report-periods.ts';
import type { DbScope } from '../../db/scope.ts';
import { reportsRepo } from '../../db/repositories/reports-repo.ts';
import { addLatency, emptyLatency, latencyOf, type LatencyMerge } from './latency.ts';
import { LOCAL_LOCATION } from '../../../lib/probe-locations.ts';

export interface SlaReport {
  company: { id: string; name: string };
  /** First day, YYYY-MM-DD */
  from: string;
  /** Last day (inclusive), YYYY-MM-DD */
  to: string;
  generated_at: string;
  monitors: SlaMonitorLine[];
  total: SlaFigures;
}

export async function buildSlaReport(
  db: DbScope,
  company: { id: string; name: string },
  range: ReportRange,
  monitorIds: string[] | null,
  now: number,
): Promise<SlaReport> {
  const repo = reportsRepo(db);
  const [monitors, rollups, incidents, located] = await Promise.all([
    repo.monitors(company.id, monitorIds),
    repo.dailyRollups(company.id, range.from, range.to),
    repo.incidents(company.id, range.from, range.to),
    repo.locationRollups(company.id, range.from, range.to),
  ]);
  const incidentsOf = new Map<string, typeof incidents>();
  for (const i of incidents) incidentsOf.set(i.monitor_id, [...(incidentsOf.get(i.monitor_id) ?? []), i]);
  // One pass over the rollups: each monitor's counts and latency; the company's latency is the
  // merge of its monitors'.
  const sums = new Map(monitors.map((m) => [m.id, { checks: 0, failures: 0, maintenance: 0, latency: emptyLatency() }]));
  for (const r of rollups) {
    const s = sums.get(r.monitor_id);
    if (!s) continue;
    s.checks += Number(r.checks);
    s.failures += Number(r.failures);
    s.maintenance += Number(r.maintenance);
    addLatency(s.latency, r);
  }
  const companyLatency = emptyLatency();
  const counts: MonitorCounts[] = monitors.map((m) => {
    const { checks, failures, maintenance, latency: merged } = sums.get(m.id)!;
    addLatency(companyLatency, merged);
    const latency = latencyOf(merged);
    return {
      id: m.id,
      name: m.name,
      intervalSeconds: m.interval_seconds,
      slaTarget: m.sla_target,
      checks,
      failures,
      maintenance,
      p50Ms: latency.p50Ms,
      p95Ms: latency.p95Ms,
      incidents: (incidentsOf.get(m.id) ?? []).map((i) => ({
        id: i.id,
        title: i.title,
        startedAt: i.started_at,
        resolvedAt: i.resolved_at,
      })),
    };
  });
  // Monitors checked from several locations: each location's own figures beside the quorum's.
  const perLocation = new Map<
    string,
    Map<number, { slug: string; name: string; checks: number; failures: number; maintenance: number; latency: LatencyMerge }>
  >();
  for (const r of located) {
    if (!sums.has(r.monitor_id)) continue;
    const of = perLocation.get(r.monitor_id) ?? new Map();
    perLocation.set(r.monitor_id, of);
    const l = of.get(r.location) ?? {
      slug: r.slug ?? LOCAL_LOCATION.slug,
      name: r.location_name ?? (r.location === 0 ? LOCAL_LOCATION.name : `Location ${r.location} (deleted)`),
      checks: 0,
      failures: 0,
      maintenance: 0,
      latency: emptyLatency(),
    };
    of.set(r.location, l);
    l.checks += Number(r.checks);
    l.failures += Number(r.failures);
    l.maintenance += Number(r.maintenance);
    addLatency(l.latency, r);
  }
  const lineOf = (m: MonitorCounts) => {
    const line = monitorLine(m, range, now);
    const locs = [...(perLocation.get(m.id)?.entries() ?? [])].sort(([a], [b]) => a - b);
    line.locations = locs.map(([, l]) => {
      const latency = latencyOf(l.latency);
      return locationLine(
        l,
        {
          intervalSeconds: m.intervalSeconds,
          slaTarget: m.slaTarget,
          checks: l.checks,
          failures: l.failures,
          maintenance: l.maintenance,
          ...latency,
        },
        range,
        now,
      );
    });
    return line;
  };
  return {
    company: { id: company.id, name: company.name },
    from: isoDate(range.from),
    to: isoDate(range.to - 1),
    generated_at: new Date(now).toISOString(),
    monitors: counts.map(lineOf),
    total: companyTotal(counts, range, now, latencyOf(companyLatency)),
  };
}
