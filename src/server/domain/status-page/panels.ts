// The status page's panels (issue 32), built with the page's snapshot: a response-time chart per
// component that asks for one (mean response time per hour for 24 h and 7 d, per day for 30 d,
// from the stored rollups; one line per location beside the total when the component shows its
// locations), and the company's security panel when it opted in (its verified domains' latest
// TLS and domain-check results; nothing is scanned when a visitor looks).
//
// Charts draw complete periods only (the hour or day under way is left out), so their figures
// change when the hour turns, not with every check: the panels are read once per hour per
// company (and once more a few minutes after the turn, for checks of the past hour written
// late), or when the page's edits change (eventsKey: the company row, which the security panel
// switch stamps, flags, incidents) or the charted components do. A page rebuilt after a check
// reuses them without a query, and the page's frame holds their key, so a splice never keeps
// an old chart (lib/status-page-markup.ts).
import { createHash } from 'node:crypto';
import { LatencySketch } from '../../../lib/latency-sketch.ts';
import { LOCAL_LOCATION } from '../../../lib/probe-locations.ts';
import { CHART_RANGES, RANGE_PERIODS, type ChartRangeView, type ChartSeries, type ResponseChartView } from '../../../lib/response-chart.ts';
import type { PagePanels } from '../../../lib/page-panels.ts';
import {
  dmarcPasses,
  hstsOf,
  spfPasses,
  type PanelDomain,
  type PanelDns,
  type PanelTls,
  type SecurityPanelView,
} from '../../../lib/security-panel.ts';
import { DAY_MS, HOUR_MS, dayStart, hourStart } from '../../../lib/timeline.ts';
import { pagePanelsRepo, type PanelResultRow } from '../../db/repositories/page-panels-repo.ts';
import type { RollupRecord } from '../../db/repositories/rollups-repo.ts';
import type { PublicMonitorRow, StatusCompanyRow } from '../../db/repositories/status-page-repo.ts';
import type { DbScope } from '../../db/scope.ts';
import type { Services } from '../context.ts';
import { flagOn } from '../flags/flags.ts';

/** Checks of the past hour may be written just after it ends: the panels are read again then. */
export const LATE_WRITES_MS = 3 * 60_000;

type ChartedMonitor = Pick<PublicMonitorRow, 'id' | 'public_locations'> & { name: string };

/** What a company's rebuilds reuse, beside view.ts's own kept parts (same lifetime: the cache's map entry). */
const keptPanels = new WeakMap<object, { reuse: string; panels: PagePanels }>();

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Mean of timed responses of summed rollups: the sum over the count the sketches hold. */
class MeanOf {
  sum = 0;
  timed = 0;
  add(r: RollupRecord): void {
    const timed = r.response_sketch === '' ? 0 : LatencySketch.parse(r.response_sketch).total;
    this.sum += r.sum_response_ms;
    this.timed += timed;
  }
  get value(): number | null {
    return this.timed > 0 ? round2(this.sum / this.timed) : null;
  }
}

function seriesOf(
  rows: RollupRecord[],
  first: number,
  step: number,
  periods: number,
  periodOf: (start: number) => number,
): Array<number | null> {
  const means = Array.from({ length: periods }, () => new MeanOf());
  for (const r of rows) {
    const i = Math.round((periodOf(r.start) - first) / step);
    if (i >= 0 && i < periods) means[i].add(r);
  }
  return means.map((m) => m.value);
}

async function buildCharts(db: DbScope, companyId: string, charted: ChartedMonitor[], now: number): Promise<ResponseChartView[]> {
  if (charted.length === 0) return [];
  const ids = charted.map((m) => m.id);
  const located = charted.filter((m) => m.public_locations).map((m) => m.id);
  const endHour = hourStart(now);
  const endDay = dayStart(now);
  const firstHour = endHour - RANGE_PERIODS['7d'].periods * HOUR_MS;
  const firstDay = endDay - RANGE_PERIODS['30d'].periods * DAY_MS;
  const repo = pagePanelsRepo(db);
  const [hourly, daily, byLocation] = await Promise.all([
    repo.rollups('hourly', companyId, ids, firstHour, endHour),
    repo.rollups('daily', companyId, ids, firstDay, endDay),
    repo.locationRollups(companyId, located, Math.min(firstHour, firstDay), endHour),
  ]);
  const names = await repo.locationNames(companyId, [...new Set(byLocation.map((r) => r.location))]);
  const group = <T extends { monitor_id: string }>(rows: T[]) => {
    const m = new Map<string, T[]>();
    for (const r of rows) m.set(r.monitor_id, [...(m.get(r.monitor_id) ?? []), r]);
    return m;
  };
  const hourlyBy = group(hourly);
  const dailyBy = group(daily);
  const locationBy = group(byLocation);
  return charted.map((m) => {
    const locations = new Map<number, RollupRecord[]>();
    for (const r of locationBy.get(m.id) ?? []) locations.set(r.location, [...(locations.get(r.location) ?? []), r]);
    const order = [...locations.keys()].sort((a, b) => a - b);
    const ranges: ChartRangeView[] = CHART_RANGES.map((range) => {
      const { periods, grain } = RANGE_PERIODS[range];
      const step = grain === 'hour' ? HOUR_MS : DAY_MS;
      const first = (grain === 'hour' ? endHour : endDay) - periods * step;
      const periodOf = grain === 'hour' ? (t: number) => t : dayStart;
      const own = grain === 'hour' ? (hourlyBy.get(m.id) ?? []) : (dailyBy.get(m.id) ?? []);
      const series: ChartSeries[] = [{ total: true, name: null, points: seriesOf(own, first, step, periods, periodOf) }];
      // A location's days are its hours summed (there are no per-location daily rollups).
      for (const num of order) {
        const name = num === 0 ? LOCAL_LOCATION.name : (names.get(num) ?? null);
        series.push({ total: false, name, points: seriesOf(locations.get(num)!, first, step, periods, periodOf) });
      }
      return { range, first, series: series.filter((s) => s.total || s.points.some((v) => v !== null)) };
    });
    return { monitorId: m.id, name: m.name, ranges };
  });
}

function parse(data: string): Record<string, unknown> {
  try {
    const v = JSON.parse(data) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v.slice(0, 40) : null);

function tlsOf(r: PanelResultRow): PanelTls {
  const d = parse(r.data);
  return {
    measuredAt: Number(r.checked_at),
    grade: r.grade,
    hsts: hstsOf(typeof d.hsts === 'string' ? d.hsts : null, num(d.hsts_max_age) ?? 0),
    certExpiresAt: num(d.cert_expires_at),
  };
}

function dnsOf(r: PanelResultRow): PanelDns {
  const d = parse(r.data);
  const spf = d.spf as { record: string | null; count: number; all: string | null; lookups: number; broken?: string[] } | null | undefined;
  const dmarc = d.dmarc as { record: string | null; policy: string | null } | null | undefined;
  return {
    measuredAt: Number(r.checked_at),
    spf: spf ? { pass: spfPasses(spf), all: str(spf.all) } : null,
    dmarc: dmarc ? { pass: dmarcPasses(dmarc), policy: str(dmarc.policy) } : null,
    registrationExpiresAt: num(d.registration_expires_at),
  };
}

/**
 * The security panel of a company: its verified assets (domains and hosts) with the latest
 * result of each analysis its kind gets (a host: TLS; a domain: domain checks), each only while
 * that analysis's feature flag is on. `null` result: not measured yet.
 */
export async function securityPanelOf(services: Services, companyId: string): Promise<SecurityPanelView> {
  const repo = pagePanelsRepo(services.db);
  const [assets, ssl, dns] = await Promise.all([
    repo.verifiedAssets(companyId),
    flagOn(services, 'ENABLE_SSL_MONITORING'),
    flagOn(services, 'ENABLE_DOMAIN_CHECKS'),
  ]);
  const shown = assets.filter((a) => (a.kind === 'host' && ssl) || (a.kind === 'domain' && dns));
  const results = await repo.latestResults(
    companyId,
    shown.map((a) => a.id),
  );
  const resultOf = (id: string, source: string) => results.find((r) => r.asset_id === id && r.source === source);
  return {
    domains: shown.map((a): PanelDomain => {
      if (a.kind === 'host') {
        const r = resultOf(a.id, 'ssl');
        return { hostname: a.hostname, kind: 'host', tls: r ? tlsOf(r) : null };
      }
      const r = resultOf(a.id, 'dns');
      return { hostname: a.hostname, kind: 'domain', dns: r ? dnsOf(r) : null };
    }),
  };
}

/** The panels of a page, reused while their key holds (see the top of this file). */
export async function pagePanels(
  services: Services,
  company: Pick<StatusCompanyRow, 'id' | 'eventsKey'>,
  monitors: Array<Pick<PublicMonitorRow, 'id' | 'public_locations' | 'public_response_chart'>>,
  nameOf: ReadonlyMap<string, string>,
  now: number,
  kept?: object,
): Promise<PagePanels> {
  const charted = monitors.filter((m) => m.public_response_chart).map((m) => ({ ...m, name: nameOf.get(m.id) ?? '' }));
  const hour = hourStart(now);
  const reuse = [
    hour,
    now - hour >= LATE_WRITES_MS ? 1 : 0,
    company.eventsKey,
    charted.map((m) => `${m.id}:${m.public_locations ? 1 : 0}:${m.name}`).join(','),
  ].join('|');
  const old = kept ? keptPanels.get(kept) : undefined;
  if (old?.reuse === reuse) return old.panels;
  const repo = pagePanelsRepo(services.db);
  const [charts, on] = await Promise.all([buildCharts(services.db, company.id, charted, now), repo.securityPanelOn(company.id)]);
  const security = on ? await securityPanelOf(services, company.id) : null;
  // The frame's key is the content's: a page without panels keeps one key through the hours, so
  // the hour turning is still spliced in; `at` only counts where days to expiry are shown.
  const content = JSON.stringify([charts, security, security ? hour : 0]);
  const key = createHash('sha256').update(content).digest('base64url').slice(0, 22);
  const panels: PagePanels = { key, at: hour, charts, security };
  if (kept) keptPanels.set(kept, { reuse, panels });
  return panels;
}
