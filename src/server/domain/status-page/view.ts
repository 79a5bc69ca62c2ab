// Builds the view model of one company's public page from the database: public monitors with
// their 24 hourly blocks and 90 daily bars, public incidents (active + last 14 days) with
// updates, and maintenance windows. Everything the page, the API, the Statuspage JSON, the feeds
// and the badges show comes from this one snapshot.
import { pageLanguagesOf } from '../../../lib/page-locale.ts';
import { configChildren } from '../monitors/links.ts';
import type { Services } from '../context.ts';
import {
  statusPageRepo,
  type IncidentRow,
  type IncidentUpdateRow,
  type MaintenanceRow,
  type PublicGroupRow,
  type PublicMonitorRow,
  type RollupRow,
  type StatusCompanyRow,
} from '../../db/repositories/status-page-repo.ts';
import {
  DAY_MS,
  DAILY_BARS,
  HOUR_MS,
  TIMELINE_BLOCKS,
  barsMarkup,
  dailyBarsBetween,
  dayStart,
  hourStart,
  hourlyBlocks,
  joinMarkup,
  tallySince,
  uptimeOf,
  type RollupCounts,
  type UptimeTally,
} from '../../../lib/timeline.ts';
import {
  type BarsMarkup,
  type DailyBarView,
  type TimelineBlockView,
  DEFAULT_PRIMARY,
  DEFAULT_SECONDARY,
  brandColor,
  impactOf,
  IMPACTS,
  isStatus,
  overallOf,
  type Impact,
  type GroupView,
  type IncidentView,
  type MaintenanceView,
  type MonitorView,
  type Status,
  type StatusPageView,
} from '../../../lib/status.ts';
import { coversMonitor, isActiveAt, occurrenceFrom } from '../../../lib/maintenance.ts';
import { publicNameOf } from '../../../lib/public-name.ts';
import { LOCAL_LOCATION } from '../../../lib/probe-locations.ts';
import type { MonitorType } from '../../db/schema/monitoring.ts';
import { parseConfig } from '../../engine/kinds/config.ts';
import { KINDS } from '../../engine/kinds/index.ts';
import { incidentTitle } from '../../engine/state-machine.ts';
import { safeLogoDataUrl } from './logo.ts';
import { flagOn } from '../flags/flags.ts';
import { parseTranslations } from '../../../lib/i18n/company-text.ts';
import { pagePanels } from './panels.ts';

export const HISTORY_DAYS = 14;
/** Incidents kept in the snapshot (feeds and incidents.json reach further back than the page). */
const INCIDENT_WINDOW_MS = 90 * DAY_MS;
const INCIDENT_LIMIT = 100;
/** Maintenance windows that ended up to this long ago are read (the page shows current and coming ones). */
const WINDOW_PAST_MS = 7 * DAY_MS;
const WINDOW_LIMIT = 50;

export function counts(r: RollupRow): RollupCounts {
  return {
    start: Number(r.start),
    checks: Number(r.checks),
    failures: Number(r.failures),
    degraded: Number(r.degraded),
    maintenance: Number(r.maintenance),
    lastHttpCode: r.last_http_code == null ? null : Number(r.last_http_code),
  };
}

export function groupBy<T>(rows: T[], key: (r: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}

/** The host a monitor checks (its kind says which), or null: a public name must not show it. */
export function monitorTarget(m: Pick<PublicMonitorRow, 'type' | 'config'>): string | null {
  return KINDS[m.type as MonitorType]?.publicTarget(parseConfig(m.config)) ?? null;
}

/**
 * Public monitors in page order: those without a group first, then each group's in the groups'
 * order; within each, by their position (unplaced ones last, in the rows' name order).
 */
export function pageOrder<M extends Pick<PublicMonitorRow, 'public_group_id' | 'public_position'>>(
  monitors: M[],
  groups: Array<Pick<PublicGroupRow, 'id'>>,
): M[] {
  const groupAt = new Map(groups.map((g, i) => [g.id, i]));
  const section = (m: M) => (m.public_group_id === null ? -1 : (groupAt.get(m.public_group_id) ?? -1));
  const place = (m: M) => (m.public_position === null ? Number.MAX_SAFE_INTEGER : Number(m.public_position));
  return [...monitors].sort((a, b) => section(a) - section(b) || place(a) - place(b));
}

/**
 * What visitors read as an incident's title. The engine titles its incidents with the monitor's
 * internal name ('db-01.corp is down'): they read the public name instead.
 */
export function publicIncidentTitle(i: Pick<IncidentRow, 'created_by' | 'title'>, publicName: string | undefined): string {
  return i.created_by === null && publicName !== undefined && i.title.endsWith(' is down') ? incidentTitle(publicName) : i.title;
}

/**
 * What a company's rebuilds reuse (kept by the snapshot cache between them): the settled rollups,
 * and the incidents, windows, groups and flags while the fingerprint's events part holds.
 */
export interface KeptParts {
  rollups?: SettledRollups;
  events?: KeptEvents;
}

/**
 * Rollups old enough not to change any more (more than one period behind the current one; the
 * last two periods are always read fresh, which also catches a check written just after the
 * hour turned), kept as the timeline blocks, daily bars, page markup and uptime tallies they
 * make. A rebuild then reads ~2 rows per monitor instead of 114 and makes 2 blocks and 2 bars of
 * each instead of 24 and 90.
 */
interface SettledRollups {
  key: string;
  monitors: Map<string, SettledMonitor>;
}

interface SettledMonitor {
  /**
   * Uptime tallies of the settled periods in each window: rollups start on period boundaries, so
   * which of them a window takes stays the same until the hour (the key) turns
   */
  tallies: { h24: UptimeTally; d7: UptimeTally; d30: UptimeTally; d90: UptimeTally };
  /** the hours from the timeline's first to the one before the live hours */
  blocks: TimelineBlockView[];
  /** the days from the bar's first to the one before the live days */
  bars: DailyBarView[];
  markup: BarsMarkup;
}

/**
 * The rows that only edits change, never a check (StatusCompanyRow.eventsKey): most rebuilds
 * follow a check, and read only the monitors and their live rollups. Read with the time window
 * of their first rebuild; later ones narrow it in memory (the same rows as a fresh read, unless
 * a read hit its row limit: then it is not kept).
 */
interface KeptEvents {
  /** the events key of the company row */
  eventsKey: string;
  /** the shown monitors the links were read for (ids, comma-separated) */
  shown: string;
  groups: PublicGroupRow[];
  incidents: IncidentRow[];
  updates: IncidentUpdateRow[];
  maintenance: MaintenanceRow[];
  subscribe: boolean;
}

/** Each monitor's rollup counts. */
const countsBy = (rows: RollupRow[]): Map<string, RollupCounts[]> => {
  const m = new Map<string, RollupCounts[]>();
  for (const r of rows) {
    const list = m.get(r.monitor_id);
    if (list) list.push(counts(r));
    else m.set(r.monitor_id, [counts(r)]);
  }
  return m;
};

/**
 * What visitors read of an incident update. Updates the check engine wrote (no author) may carry
 * what a check saw (a connection error, an address, a target's words): visitors get a neutral
 * sentence instead, and only an admin's own words as written.
 */
export function publicUpdateText(u: Pick<IncidentUpdateRow, 'status' | 'message' | 'created_by'>): string {
  if (u.created_by !== null) return u.message;
  return u.status === 'resolved' ? 'Responding as expected again.' : 'Not responding as expected.';
}

/**
 * What visitors read of incidents: public names for the monitors (and for the engine's titles),
 * the engine's updates in neutral words, a postmortem only once resolved. `nameOf` holds the
 * public names of the page's shown monitors; others are left out.
 */
export function incidentViewsOf(
  incidents: IncidentRow[],
  updatesBy: Map<string, IncidentUpdateRow[]>,
  nameOf: Map<string, string>,
  nameTranslationsOf: Map<string, Record<string, string>> = new Map(),
): IncidentView[] {
  return incidents.map((i) => ({
    id: i.id,
    title: publicIncidentTitle(i, i.monitor_id ? nameOf.get(i.monitor_id) : undefined),
    titleTranslations: parseTranslations(i.title_translations),
    severity: i.severity,
    impact: impactOf(i.severity),
    status: i.status,
    startedAt: Number(i.started_at),
    resolvedAt: i.resolved_at == null ? null : Number(i.resolved_at),
    updatedAt: Number(i.updated_at),
    monitors: (i.monitor_ids ?? []).flatMap((id) =>
      nameOf.has(id) ? [{ id, name: nameOf.get(id)!, nameTranslations: nameTranslationsOf.get(id) ?? {} }] : [],
    ),
    postmortem: i.resolved_at == null ? null : i.postmortem,
    updates: (updatesBy.get(i.id) ?? []).map((u) => ({
      id: u.id,
      status: u.status,
      message: publicUpdateText(u),
      // the engine's neutral sentences are the page's own words (its catalogue), not the company's
      messageTranslations: u.created_by === null ? {} : parseTranslations(u.message_translations),
      createdAt: Number(u.created_at),
    })),
  }));
}

/** The incidents (with their updates), windows and flag of the page, read for its shown monitors. */
async function readEvents(
  services: Services,
  company: StatusCompanyRow,
  shown: string,
  groups: PublicGroupRow[],
  now: number,
): Promise<KeptEvents> {
  const repo = statusPageRepo(services.db);
  const [incidents, maintenance, subscribe] = await Promise.all([
    repo.publicIncidents(company.id, now - INCIDENT_WINDOW_MS, INCIDENT_LIMIT),
    repo.publicMaintenance(company.id, now - WINDOW_PAST_MS, WINDOW_LIMIT),
    flagOn(services, 'ENABLE_NOTIFICATIONS'),
  ]);
  const updates = await repo.incidentUpdates(
    company.id,
    incidents.map((i) => i.id),
  );
  return { eventsKey: company.eventsKey, shown, groups, incidents, updates, maintenance, subscribe };
}

/** An open public incident means the page cannot claim that all is well. */
export async function buildStatusView(
  services: Services,
  company: StatusCompanyRow,
  etag: string,
  keptBy?: Map<string, KeptParts>,
): Promise<StatusPageView> {
  const now = services.now();
  const repo = statusPageRepo(services.db);
  const kept: KeptParts = keptBy?.get(company.id) ?? {};
  keptBy?.set(company.id, kept);
  const sameEvents = kept.events?.eventsKey === company.eventsKey ? kept.events : undefined;
  const [rows, groupRows] = await Promise.all([repo.publicMonitors(company.id), sameEvents?.groups ?? repo.publicGroups(company.id)]);
  const monitors = pageOrder(rows, groupRows);
  const ids = monitors.map((m) => m.id);
  const locatedBy = new Map<string, MonitorView['locations']>();
  for (const l of await repo.publicLocations(
    company.id,
    monitors.filter((m) => m.public_locations).map((m) => m.id),
  ))
    locatedBy.set(l.monitor_id, [
      ...(locatedBy.get(l.monitor_id) ?? []),
      {
        name: l.name ?? (l.location === 0 ? LOCAL_LOCATION.name : 'Another location'),
        responseTimeMs: l.last_response_time_ms == null ? null : Number(l.last_response_time_ms),
        status: l.last_status,
      },
    ]);
  const firstHour = hourStart(now) - (TIMELINE_BLOCKS - 1) * HOUR_MS;
  const firstDay = dayStart(now) - (DAILY_BARS - 1) * DAY_MS;
  const liveHour = hourStart(now) - HOUR_MS;
  const liveDay = dayStart(now) - DAY_MS;
  const key = `${liveHour}|${liveDay}|${ids.join(',')}`;
  let old = kept.rollups;
  if (!old || old.key !== key) {
    const [h, d] = await Promise.all([
      repo.hourlyRollups(company.id, ids, firstHour, liveHour),
      repo.dailyRollups(company.id, ids, firstDay, liveDay),
    ]);
    const hourlyBy = countsBy(h);
    const dailyBy = countsBy(d);
    const monitorsOf = new Map<string, SettledMonitor>();
    for (const id of ids) {
      const hourly = hourlyBy.get(id) ?? [];
      const daily = dailyBy.get(id) ?? [];
      const blocks = hourlyBlocks(hourly, firstHour, liveHour - HOUR_MS);
      const bars = dailyBarsBetween(daily, firstDay, liveDay - DAY_MS);
      const tallies = {
        h24: tallySince(hourly, now, TIMELINE_BLOCKS * HOUR_MS),
        d7: tallySince(daily, now, 7 * DAY_MS),
        d30: tallySince(daily, now, 30 * DAY_MS),
        d90: tallySince(daily, now, DAILY_BARS * DAY_MS),
      };
      monitorsOf.set(id, { tallies, blocks, bars, markup: barsMarkup(blocks, bars) });
    }
    old = { key, monitors: monitorsOf };
    kept.rollups = old;
  }
  const shown = [...ids].sort().join(',');
  const reuse = sameEvents?.shown === shown ? sameEvents : undefined;
  const [liveHourly, liveDaily, read] = await Promise.all([
    repo.hourlyRollups(company.id, ids, liveHour),
    repo.dailyRollups(company.id, ids, liveDay),
    reuse ? null : readEvents(services, company, shown, groupRows, now),
  ]);
  // a read cut at its limit may leave out rows a later, narrower read finds: not kept
  if (read) kept.events = read.incidents.length < INCIDENT_LIMIT && read.maintenance.length < WINDOW_LIMIT ? read : undefined;
  const events = (reuse ?? read)!;
  const { updates, subscribe } = events;
  const incidents = events.incidents.filter((i) => i.resolved_at == null || Number(i.resolved_at) >= now - INCIDENT_WINDOW_MS);
  const maintenance = events.maintenance.filter((w) => Number(w.ends_at) >= now - WINDOW_PAST_MS || w.recurrence != null);
  const liveHourlyBy = countsBy(liveHourly);
  const liveDailyBy = countsBy(liveDaily);
  const updatesBy = groupBy(updates, (u) => u.incident_id);
  const nameOf = new Map(
    monitors.map((m, i) => [m.id, publicNameOf({ name: m.name, publicName: m.public_name, target: monitorTarget(m) }, i + 1)]),
  );
  const nameTranslationsOf = new Map(monitors.map((m) => [m.id, parseTranslations(m.public_name_translations)]));
  const affected = (ids: string[]) =>
    ids.flatMap((id) => (nameOf.has(id) ? [{ id, name: nameOf.get(id)!, nameTranslations: nameTranslationsOf.get(id) ?? {} }] : []));
  const panels = await pagePanels(services, company, monitors, nameOf, now, kept);

  // A recurring window shows its running or next occurrence; one that is over is left out.
  const maintenanceViews: MaintenanceView[] = maintenance.flatMap((w) => {
    const o = w.recurrence ? occurrenceFrom(w, now) : { start: Number(w.starts_at), end: Number(w.ends_at) };
    if (!o) return [];
    return [
      {
        id: w.id,
        title: w.title,
        description: w.description,
        startsAt: o.start,
        endsAt: o.end,
        createdAt: Number(w.created_at),
        updatedAt: Number(w.updated_at ?? w.created_at),
        monitors: affected(w.monitor_ids ?? []),
        active: isActiveAt(w, now),
      },
    ];
  });
  const underMaintenance = (monitorId: string) =>
    maintenance.some((w) => coversMonitor(w, { id: monitorId, company_id: company.id }) && isActiveAt(w, now));

  const incidentViews = incidentViewsOf(incidents, updatesBy, nameOf, nameTranslationsOf);
  // A down monitor's outage is what an admin gave its open automatic incident as impact, else a
  // partial outage, or a major one when its admin marked it critical (lib/status.ts overallOf).
  const openImpactOf = new Map<string, Impact>();
  for (const i of incidents)
    if (i.resolved_at == null && i.created_by === null && i.monitor_id) openImpactOf.set(i.monitor_id, impactOf(i.severity));
  const outageOf = (m: PublicMonitorRow): Impact => openImpactOf.get(m.id) ?? (m.is_critical ? 'critical' : 'major');
  // An open incident another tool raised (incoming alerts) marks its components with the impact
  // its source gives: the worst of them when several do.
  const markedBy = new Map<string, Impact>();
  for (const i of incidents)
    if (i.resolved_at == null && i.marks_impact && isImpact(i.marks_impact))
      for (const id of i.monitor_ids ?? []) markedBy.set(id, worseImpact(markedBy.get(id), i.marks_impact));

  const monitorViews: MonitorView[] = monitors.map((m) => {
    const kept = old.monitors.get(m.id)!;
    const liveH = liveHourlyBy.get(m.id) ?? [];
    const liveD = liveDailyBy.get(m.id) ?? [];
    const liveBlocks = hourlyBlocks(liveH, liveHour, hourStart(now));
    const liveBars = dailyBarsBetween(liveD, liveDay, dayStart(now));
    const stored: Status = isStatus(m.status) ? m.status : 'unknown';
    const checked: Status = m.is_paused ? 'unknown' : stored;
    const marked = markedBy.get(m.id);
    const status: Status = underMaintenance(m.id) ? 'maintenance' : marked ? markedStatus(marked, checked) : checked;
    return {
      id: m.id,
      name: nameOf.get(m.id)!,
      nameTranslations: nameTranslationsOf.get(m.id) ?? {},
      groupId: m.public_group_id !== null && groupRows.some((g) => g.id === m.public_group_id) ? m.public_group_id : null,
      status,
      outage: marked && marked !== 'minor' ? worseImpact(outageOf(m), marked) : outageOf(m),
      reportsHttpCode: KINDS[m.type as MonitorType]?.reportsHttpCode === true,
      lastCheckedAt: m.last_checked_at == null ? null : Number(m.last_checked_at),
      lastResponseTimeMs: m.last_response_time_ms == null ? null : Number(m.last_response_time_ms),
      lastHttpCode: m.last_http_code == null ? null : Number(m.last_http_code),
      locations: locatedBy.get(m.id) ?? [],
      timeline: kept.blocks.concat(liveBlocks),
      daily: kept.bars.concat(liveBars),
      markup: joinMarkup(kept.markup, barsMarkup(liveBlocks, liveBars)),
      uptime90d: uptimeOf(kept.tallies.d90, tallySince(liveD, now, DAILY_BARS * DAY_MS)),
      uptime24h: uptimeOf(kept.tallies.h24, tallySince(liveH, now, TIMELINE_BLOCKS * HOUR_MS)),
      uptime7d: uptimeOf(kept.tallies.d7, tallySince(liveD, now, 7 * DAY_MS)),
      uptime30d: uptimeOf(kept.tallies.d30, tallySince(liveD, now, 30 * DAY_MS)),
      createdAt: Number(m.created_at),
      updatedAt: Number(m.updated_at),
    };
  });

  // A group monitor lists its children that are public themselves (their internal names never show).
  const viewOf = new Map(monitorViews.map((v) => [v.id, v]));
  for (const m of monitors) {
    const ids = configChildren(parseConfig(m.config));
    if (ids === null) continue;
    viewOf.get(m.id)!.children = ids.flatMap((id) => {
      const c = viewOf.get(id);
      return c ? [{ id, name: c.name, status: c.status }] : [];
    });
  }

  return {
    company: {
      id: company.id,
      name: company.name,
      subdomain: company.subdomain,
      primaryColor: brandColor(company.primary_color, DEFAULT_PRIMARY),
      secondaryColor: brandColor(company.secondary_color, DEFAULT_SECONDARY),
      logo: safeLogoDataUrl(company.horizontal_logo_base64) ?? safeLogoDataUrl(company.logo_base64),
    },
    overall: overallOf(
      monitorViews,
      incidentViews.filter((i) => i.resolvedAt === null).map((i) => i.impact),
      maintenanceViews.some((w) => w.active),
    ),
    monitors: monitorViews,
    groups: groupRows
      .filter((g) => monitorViews.some((m) => m.groupId === g.id))
      .map(
        (g): GroupView => ({
          id: g.id,
          name: g.name,
          nameTranslations: parseTranslations(g.name_translations),
          createdAt: Number(g.created_at),
          updatedAt: Number(g.updated_at),
        }),
      ),
    activeIncidents: incidentViews.filter((i) => i.resolvedAt === null),
    recentIncidents: incidentViews.filter((i) => i.resolvedAt !== null && i.resolvedAt >= now - HISTORY_DAYS * DAY_MS),
    allIncidents: incidentViews,
    maintenance: maintenanceViews,
    generatedAt: now,
    etag,
    subscribe,
    languages: pageLanguagesOf(company.default_language, company.status_page_languages, company.status_page_time_zone),
    panels,
  };
}

const isImpact = (v: string): v is Impact => (IMPACTS as readonly string[]).includes(v);
const worseImpact = (a: Impact | undefined, b: Impact): Impact => (a && IMPACTS.indexOf(a) > IMPACTS.indexOf(b) ? a : b);
/** A component an incoming incident marks: degraded for a minor impact (unless its own checks say down), else down. */
const markedStatus = (impact: Impact, checked: Status): Status => (impact === 'minor' && checked !== 'down' ? 'degraded' : 'down');
