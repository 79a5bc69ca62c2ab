// Status values of the public pages and their colours (section 4 of the spec: operational green,
// degraded amber, down red, unknown grey), plus the view model the status page renders.
// Pure; imports only src/lib.
import { isHexColour } from './formats.ts';
import { formatUtcMinute } from './dates.ts';
import type { PageLanguages } from './page-locale.ts';
import type { PagePanels } from './page-panels.ts';

export type Status = 'operational' | 'degraded' | 'down' | 'unknown' | 'maintenance';

export const STATUS_LABEL: Record<Status, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  down: 'Down',
  unknown: 'Unknown',
  maintenance: 'Maintenance',
};

/** Text and background colours (WCAG AA contrast for the pill text). */
export const STATUS_COLOR: Record<Status, string> = {
  operational: '#16a34a',
  degraded: '#d97706',
  down: '#dc2626',
  unknown: '#6b7280',
  maintenance: '#2563eb',
};

/** Statuspage's indicator of a page's overall state (its `status.indicator`). */
export type Indicator = 'none' | 'minor' | 'major' | 'critical' | 'maintenance';

/** A page's overall state: one rule read by the page, its badges, its JSON documents and its feeds. */
export interface Overall {
  /** the page's colour and the public API's `overall_status` */
  status: Status;
  indicator: Indicator;
  /** the headline, also the Statuspage `status.description` */
  text: string;
}

const INDICATOR_TEXT: Record<Indicator, string> = {
  none: 'All Systems Operational',
  minor: 'Some Systems Degraded',
  major: 'Partial System Outage',
  critical: 'Major Service Outage',
  maintenance: 'Service Under Maintenance',
};
const INDICATOR_RANK: Record<Indicator, number> = { none: 0, maintenance: 1, minor: 2, major: 3, critical: 4 };
const INDICATOR_STATUS: Record<Indicator, Status> = {
  none: 'operational',
  maintenance: 'maintenance',
  minor: 'degraded',
  major: 'degraded',
  critical: 'down',
};
/**
 * Statuspage's impact of an incident: what it means for the page (minor: degraded performance,
 * major: a partial outage, critical: a major outage). Incidents also keep the older `severity`
 * (critical, high, medium, low) that clients were written against; the two map onto each other.
 */
export type Impact = 'minor' | 'major' | 'critical';
export const IMPACTS: readonly Impact[] = ['minor', 'major', 'critical'];
export type Severity = 'critical' | 'high' | 'medium' | 'low';
/** An open incident's severity raises the page to at least this (Statuspage's impact). */
export const INCIDENT_IMPACT: Record<string, Impact> = {
  critical: 'critical',
  high: 'major',
  medium: 'minor',
  low: 'minor',
};
/** The severity an impact is stored as; a low incident set to minor stays low (both read minor). */
export function severityOfImpact(impact: Impact, current?: string): Severity {
  if (impact === 'minor') return current === 'low' ? 'low' : 'medium';
  return impact === 'critical' ? 'critical' : 'high';
}
export const impactOf = (severity: string): Impact => INCIDENT_IMPACT[severity] ?? 'minor';
/** How people read an impact: the component status it stands for. */
export const IMPACT_LABEL: Record<Impact, string> = {
  minor: 'Degraded performance',
  major: 'Partial outage',
  critical: 'Major outage',
};

/** A Statuspage component's status: what one monitor means for the page. */
export type ComponentStatus = 'operational' | 'degraded_performance' | 'partial_outage' | 'major_outage' | 'under_maintenance';

/** A shown monitor as the overall rule reads it. */
export interface ComponentState {
  status: Status;
  /**
   * What its outage means for the page: 'major' (a partial outage, the default), 'critical' (its
   * admin marked it critical: its outage alone is a major outage), or the impact an admin gave
   * its open incident.
   */
  outage: Impact;
}

const OUTAGE_COMPONENT: Record<Impact, ComponentStatus> = {
  minor: 'degraded_performance',
  major: 'partial_outage',
  critical: 'major_outage',
};
const STATUS_COMPONENT: Record<Exclude<Status, 'down'>, ComponentStatus> = {
  operational: 'operational',
  degraded: 'degraded_performance',
  maintenance: 'under_maintenance',
  // Statuspage has no "unknown": a monitor without data yet is not reported as failing.
  unknown: 'operational',
};
export function componentStatusOf(c: ComponentState): ComponentStatus {
  return c.status === 'down' ? OUTAGE_COMPONENT[c.outage] : STATUS_COMPONENT[c.status];
}
const COMPONENT_INDICATOR: Record<ComponentStatus, Indicator> = {
  operational: 'none',
  under_maintenance: 'maintenance',
  degraded_performance: 'minor',
  partial_outage: 'major',
  major_outage: 'critical',
};
const inOutage = (s: ComponentStatus) => s === 'partial_outage' || s === 'major_outage';

/**
 * The overall state of a page, as Statuspage rolls it up: each shown monitor (component) raises
 * it to its status (degraded → minor; down → major, "Partial System Outage", or critical, "Major
 * Service Outage", when the monitor is marked critical or its incident's impact says so); every
 * component in an outage → critical; a monitor in (or a window of) maintenance → maintenance;
 * each open incident raises it to its impact. Otherwise the page is operational only when every
 * monitor it shows is: one shown as unknown (new and not confirmed yet, e.g. its first failure
 * awaiting confirmation, or paused) makes it 'Some Systems Unknown', and with no monitor data
 * at all it says 'Status Unknown'. Statuspage's indicator stays 'none' then: nothing is known to
 * be wrong.
 */
export function overallOf(components: ComponentState[], openIncidentImpacts: Impact[], maintenanceActive: boolean): Overall {
  const known = components.filter((c) => c.status !== 'unknown').map(componentStatusOf);
  let indicator: Indicator = 'none';
  const raise = (i: Indicator) => {
    if (INDICATOR_RANK[i] > INDICATOR_RANK[indicator]) indicator = i;
  };
  if (known.length && known.every(inOutage)) raise('critical');
  for (const s of known) raise(COMPONENT_INDICATOR[s]);
  if (maintenanceActive) raise('maintenance');
  for (const i of openIncidentImpacts) raise(i);
  if (indicator === 'none' && known.length === 0) return { status: 'unknown', indicator, text: 'Status Unknown' };
  if (indicator === 'none' && known.length < components.length) return { status: 'unknown', indicator, text: 'Some Systems Unknown' };
  return { status: INDICATOR_STATUS[indicator], indicator, text: INDICATOR_TEXT[indicator] };
}

/** Icon of the overall card: tick operational, warning degraded, cross down, ? otherwise. */
export function overallIcon(status: Status): string {
  return status === 'operational' ? '✓' : status === 'degraded' ? '⚠' : status === 'down' ? '✕' : '?';
}

export function isStatus(v: unknown): v is Status {
  return typeof v === 'string' && v in STATUS_LABEL;
}

export const DEFAULT_PRIMARY = '#007bff';
export const DEFAULT_SECONDARY = '#6c757d';

/** A tenant colour if it is exactly #rrggbb, else the default (never reaches CSS unvalidated). */
export function brandColor(value: unknown, fallback: string): string {
  return isHexColour(value) ? value.toLowerCase() : fallback;
}

/** Response time in ms with 2 decimals ('—' when unknown). */
export function formatMs(ms: number | null | undefined): string {
  return ms == null || !Number.isFinite(ms) ? '—' : `${ms.toFixed(2)} ms`;
}

/** Uptime percent with 2 decimals ('—' without data). */
export function formatPercent(p: number | null | undefined): string {
  return p == null || !Number.isFinite(p) ? '—' : `${p.toFixed(2)}%`;
}

/** '2026-11-22 14:05 UTC': the console's format too (dates.ts) */
export function formatUtc(ms: number | null | undefined): string {
  return formatUtcMinute(ms, 'Never');
}

/** '14:00' of an hour start (UTC) */
export function hourLabel(ms: number): string {
  // arithmetic, not Date formatting: 480 of these per 20-monitor page render
  const minutes = Math.floor(ms / 60_000);
  const h = Math.floor(minutes / 60) % 24;
  const m = minutes % 60;
  return `${h < 10 ? '0' : ''}${h}:${m < 10 ? '0' : ''}${m}`;
}

// ---- View model of a company's public status page (built on the server, rendered by Astro) ----

export interface TimelineBlockView {
  start: number;
  end: number;
  status: Status;
  httpCode: number | null;
  /** 'HH:MM–HH:MM UTC · Status · HTTP code' — title/aria text of the block */
  tooltip: string;
}

export interface DailyBarView {
  day: number;
  /** percent, null without checks */
  uptime: number | null;
  tone: 'good' | 'warn' | 'bad' | 'none';
}

/** The page's HTML of a monitor's timeline and 90-day bar (lib/timeline.ts barsMarkup) */
export interface BarsMarkup {
  /** the timeline's <li> items */
  timeline: string;
  /** the 90-day bar's <li> items */
  daily: string;
  /** the 90-day bar's data-uptime */
  dailyData: string;
}

export interface MonitorView {
  id: string;
  /** the public name (lib/public-name.ts): the internal name never enters the view */
  name: string;
  /** The company's versions of the public name per language (textIn(locale, name, nameTranslations)) */
  nameTranslations?: Readonly<Record<string, string>>;
  /** its component group, null when listed on its own */
  groupId: string | null;
  status: Status;
  /** what its outage means for the page (ComponentState.outage) */
  outage: Impact;
  /** its checks answer with an HTTP status code (the branded sign-in list shows the code) */
  reportsHttpCode: boolean;
  lastCheckedAt: number | null;
  lastResponseTimeMs: number | null;
  lastHttpCode: number | null;
  /** Its latest response time from each location, when its company shows them (empty otherwise) */
  locations: Array<{ name: string; responseTimeMs: number | null; status: string | null }>;
  /** A group monitor: its public children (by public name) and their status; absent otherwise */
  children?: Array<{ id: string; name: string; status: Status }>;
  timeline: TimelineBlockView[];
  daily: DailyBarView[];
  /** the page's markup of timeline and daily, made with the snapshot (its settled runs once per hour or day) */
  markup: BarsMarkup;
  uptime90d: number | null;
  uptime24h: number | null;
  uptime7d: number | null;
  uptime30d: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface IncidentUpdateView {
  id: string;
  status: string;
  message: string;
  /** The company's versions of the message per language (none for the check engine's neutral texts) */
  messageTranslations?: Readonly<Record<string, string>>;
  createdAt: number;
}

export interface AffectedMonitor {
  id: string;
  name: string;
  /** The company's versions of the public name per language */
  nameTranslations?: Readonly<Record<string, string>>;
}

export interface IncidentView {
  id: string;
  title: string;
  /** The company's versions of the title per language (lib/i18n/company-text.ts textIn) */
  titleTranslations?: Readonly<Record<string, string>>;
  severity: string;
  /** Statuspage's impact (INCIDENT_IMPACT of its severity) */
  impact: Impact;
  status: string;
  startedAt: number;
  resolvedAt: number | null;
  updatedAt: number;
  /** The public monitors it affects (empty: the company as a whole) */
  monitors: AffectedMonitor[];
  /** Written after resolution; null while open or when none was written */
  postmortem: string | null;
  updates: IncidentUpdateView[];
}

export interface MaintenanceView {
  id: string;
  title: string;
  description: string | null;
  startsAt: number;
  endsAt: number;
  /** when it was planned, and last edited */
  createdAt: number;
  updatedAt: number;
  /** The public monitors it covers (empty: all services) */
  monitors: AffectedMonitor[];
  /** in progress at the snapshot time */
  active: boolean;
}

/** A named component group of the page; only groups holding a public monitor are in the view. */
export interface GroupView {
  id: string;
  name: string;
  /** The company's versions of the name per language */
  nameTranslations?: Readonly<Record<string, string>>;
  createdAt: number;
  updatedAt: number;
}

export interface StatusPageView {
  company: {
    id: string;
    name: string;
    subdomain: string;
    primaryColor: string;
    secondaryColor: string;
    /** a validated data: URL (PNG/JPEG/WebP) or null */
    logo: string | null;
  };
  overall: Overall;
  /** in page order: the ungrouped monitors first, then each group's, groups in their order */
  monitors: MonitorView[];
  /** in page order */
  groups: GroupView[];
  activeIncidents: IncidentView[];
  /** resolved in the last 14 days, newest first */
  recentIncidents: IncidentView[];
  /** every public incident of the last 90 days (feeds, incidents.json), newest first */
  allIncidents: IncidentView[];
  maintenance: MaintenanceView[];
  /** when the snapshot was built (ms) */
  generatedAt: number;
  /** strong validator of the snapshot */
  etag: string;
  /** visitors may subscribe to notices (ENABLE_NOTIFICATIONS): the page shows the form */
  subscribe: boolean;
  /** the company's default language, the languages the page offers and its time zone (issue 32) */
  languages: PageLanguages;
  /** response-time charts and the security panel (issue 32; absent in views built elsewhere) */
  panels?: PagePanels;
}
