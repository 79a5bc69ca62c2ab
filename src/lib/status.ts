// Status values of the public pages and their colours (section 4 of the spec: operational green,
// degraded amber, down red, unknown grey), plus the view model the status page renders.
// Pure; imports only src/lib.
import { isHexColour } from './formats.ts';

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

/** Overall card headline per status. */
export const OVERALL_TEXT: Record<Status, string> = {
  operational: 'All Systems Operational',
  degraded: 'Some Systems Degraded',
  down: 'Major Outage',
  unknown: 'Status Unknown',
  maintenance: 'Under Maintenance',
};

/** Icon of the overall card: tick operational, warning degraded, cross down, ? otherwise. */
export function overallIcon(status: Status): string {
  return status === 'operational' ? '✓' : status === 'degraded' ? '⚠' : status === 'down' ? '✕' : '?';
}

export function isStatus(v: unknown): v is Status {
  return typeof v === 'string' && v in STATUS_LABEL;
}

/**
 * The status of a set of monitors: all down → down; any down or degraded → degraded; all
 * operational (maintenance counts as planned, not failing) → operational; nothing known → unknown.
 */
export function overallStatus(statuses: Status[]): Status {
  const known = statuses.filter((s) => s !== 'unknown');
  if (known.length === 0) return 'unknown';
  if (known.every((s) => s === 'down')) return 'down';
  if (known.some((s) => s === 'down' || s === 'degraded')) return 'degraded';
  if (known.every((s) => s === 'maintenance')) return 'maintenance';
  return 'operational';
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

/** '2026-11-22 14:05 UTC' */
export function formatUtc(ms: number | null | undefined): string {
  if (ms == null) return 'Never';
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
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

export interface MonitorView {
  id: string;
  /** the public name (lib/public-name.ts): the internal name never enters the view */
  name: string;
  /** its component group, null when listed on its own */
  groupId: string | null;
  status: Status;
  lastCheckedAt: number | null;
  lastResponseTimeMs: number | null;
  lastHttpCode: number | null;
  timeline: TimelineBlockView[];
  daily: DailyBarView[];
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
  createdAt: number;
}

export interface AffectedMonitor {
  id: string;
  name: string;
}

export interface IncidentView {
  id: string;
  title: string;
  severity: string;
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
  /** The public monitors it covers (empty: all services) */
  monitors: AffectedMonitor[];
  /** in progress at the snapshot time */
  active: boolean;
}

/** A named component group of the page; only groups holding a public monitor are in the view. */
export interface GroupView {
  id: string;
  name: string;
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
  overall: Status;
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
}
