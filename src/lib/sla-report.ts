// SLA report arithmetic (issue 17): per monitor and for the company, from rollup counts and
// incidents only (never raw check results), so a year of 1,000 monitors stays cheap. Pure.
//
// How time is derived from rollups: every check stands for one check interval of the monitor.
// A rollup counts its checks, the failed ones outside maintenance (`failures`) and the ones
// inside a maintenance window (`maintenance`). So, with I = the monitor's interval in minutes:
//   measured minutes    = (checks - maintenance) × I   (time the SLA is judged on)
//   downtime minutes    = failures × I
//   maintenance minutes = maintenance × I               (shown apart, excluded from uptime)
//   uptime %            = (measured - downtime) / measured × 100
// A degraded check is up (the service answered). Periods without checks (paused, not yet
// created) are outside the measured time rather than counted as up or down.

export interface ReportRange {
  /** Inclusive start, ms */
  from: number;
  /** Exclusive end, ms */
  to: number;
}

export interface IncidentSpan {
  id: string;
  title: string;
  startedAt: number;
  /** null: still open */
  resolvedAt: number | null;
}

export interface MonitorCounts {
  id: string;
  name: string;
  intervalSeconds: number;
  /** Promised uptime percent, e.g. 99.9; null: none */
  slaTarget: number | null;
  checks: number;
  failures: number;
  maintenance: number;
  p50Ms: number | null;
  p95Ms: number | null;
  incidents: IncidentSpan[];
}

export interface ReportIncident {
  id: string;
  title: string;
  started_at: number;
  resolved_at: number | null;
  /** Minutes of the incident inside the range (an open one up to the range's end or now) */
  duration_minutes: number;
}

export interface SlaFigures {
  uptime_percent: number | null;
  downtime_minutes: number;
  maintenance_minutes: number;
  measured_minutes: number;
  incident_count: number;
  /** Mean minutes to recover: mean duration of the range's incidents */
  mttr_minutes: number | null;
  /** Mean minutes between failures: up time divided by the number of incidents */
  mtbf_minutes: number | null;
  p50_ms: number | null;
  p95_ms: number | null;
  sla_target: number | null;
  sla_met: boolean | null;
  /** Downtime the target allows over the measured time */
  budget_minutes: number | null;
  budget_used_minutes: number | null;
  budget_left_minutes: number | null;
  budget_used_percent: number | null;
  budget_left_percent: number | null;
}

export interface SlaMonitorLine extends SlaFigures {
  monitor_id: string;
  name: string;
  incidents: ReportIncident[];
  /** A monitor checked from several locations: each location's own figures (its raw checks); the line's are the quorum's */
  locations: SlaLocationLine[];
}

export interface SlaLocationLine extends SlaFigures {
  slug: string;
  name: string;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const minutes = (ms: number) => ms / 60_000;

/** The part of an incident inside the range; an open one runs to the range's end or now. */
export function incidentInRange(i: IncidentSpan, range: ReportRange, now: number): ReportIncident | null {
  const end = Math.min(i.resolvedAt ?? Math.min(now, range.to), range.to);
  const start = Math.max(i.startedAt, range.from);
  if (end <= start && !(i.startedAt >= range.from && i.startedAt < range.to)) return null;
  return {
    id: i.id,
    title: i.title,
    started_at: i.startedAt,
    resolved_at: i.resolvedAt,
    duration_minutes: round(minutes(Math.max(0, end - start)), 2),
  };
}

interface Totals {
  measured: number;
  downtime: number;
  maintenance: number;
  incidents: ReportIncident[];
  p50: number | null;
  p95: number | null;
  target: number | null;
}

function figures(t: Totals): SlaFigures {
  const uptime = t.measured > 0 ? ((t.measured - t.downtime) / t.measured) * 100 : null;
  const n = t.incidents.length;
  const mttr = n > 0 ? t.incidents.reduce((a, i) => a + i.duration_minutes, 0) / n : null;
  const mtbf = n > 0 ? (t.measured - t.downtime) / n : null;
  const hasBudget = t.target !== null && t.measured > 0;
  const budget = hasBudget ? (t.measured * (100 - t.target!)) / 100 : null;
  const usedPct = budget === null ? null : budget > 0 ? (t.downtime / budget) * 100 : t.downtime > 0 ? 100 : 0;
  return {
    uptime_percent: uptime === null ? null : round(uptime, 3),
    downtime_minutes: round(t.downtime, 2),
    maintenance_minutes: round(t.maintenance, 2),
    measured_minutes: round(t.measured, 2),
    incident_count: n,
    mttr_minutes: mttr === null ? null : round(mttr, 2),
    mtbf_minutes: mtbf === null ? null : round(mtbf, 2),
    // Whole milliseconds: the sketch is accurate to about 1 %, more digits would only look precise.
    p50_ms: t.p50 === null ? null : Math.round(t.p50),
    p95_ms: t.p95 === null ? null : Math.round(t.p95),
    sla_target: t.target,
    // Judged on the unrounded uptime, so 99.8996 % never passes a 99.9 % target.
    sla_met: t.target === null || uptime === null ? null : uptime >= t.target,
    budget_minutes: budget === null ? null : round(budget, 2),
    budget_used_minutes: budget === null ? null : round(t.downtime, 2),
    budget_left_minutes: budget === null ? null : round(Math.max(0, budget - t.downtime), 2),
    budget_used_percent: usedPct === null ? null : round(usedPct, 2),
    budget_left_percent: usedPct === null ? null : round(Math.max(0, 100 - usedPct), 2),
  };
}

function totalsOf(m: MonitorCounts, range: ReportRange, now: number): Totals {
  const every = m.intervalSeconds / 60;
  const counted = Math.max(0, m.checks - m.maintenance);
  return {
    measured: counted * every,
    downtime: Math.min(m.failures, counted) * every,
    maintenance: m.maintenance * every,
    incidents: m.incidents.flatMap((i) => incidentInRange(i, range, now) ?? []).sort((a, b) => a.started_at - b.started_at),
    p50: m.p50Ms,
    p95: m.p95Ms,
    target: m.slaTarget,
  };
}

export function monitorLine(m: MonitorCounts, range: ReportRange, now: number): SlaMonitorLine {
  const t = totalsOf(m, range, now);
  return { monitor_id: m.id, name: m.name, ...figures(t), incidents: t.incidents, locations: [] };
}

/** One location's figures for a monitor: its own checks, no incidents (the monitor's are the quorum's). */
export function locationLine(
  l: { slug: string; name: string },
  m: Omit<MonitorCounts, 'incidents' | 'id' | 'name'>,
  range: ReportRange,
  now: number,
): SlaLocationLine {
  const t = totalsOf({ ...m, id: l.slug, name: l.name, incidents: [] }, range, now);
  return { slug: l.slug, name: l.name, ...figures(t) };
}

/**
 * The company's figures: time-weighted over its monitors (minutes add up, so monitors with other
 * intervals weigh by time, not by check count); an incident about several monitors counts once.
 * The company has no target of its own: sla_met says whether every monitor with a target met it.
 */
export function companyTotal(
  monitors: MonitorCounts[],
  range: ReportRange,
  now: number,
  latency: { p50Ms: number | null; p95Ms: number | null },
): SlaFigures {
  const sum: Totals = { measured: 0, downtime: 0, maintenance: 0, incidents: [], p50: latency.p50Ms, p95: latency.p95Ms, target: null };
  const seen = new Set<string>();
  for (const m of monitors) {
    const t = totalsOf(m, range, now);
    sum.measured += t.measured;
    sum.downtime += t.downtime;
    sum.maintenance += t.maintenance;
    for (const i of t.incidents) if (!seen.has(i.id)) seen.add(i.id), sum.incidents.push(i);
  }
  const out = figures(sum);
  const judged = monitors.map((m) => monitorLine(m, range, now).sla_met).filter((x): x is boolean => x !== null);
  return { ...out, sla_met: judged.length === 0 ? null : judged.every(Boolean) };
}
