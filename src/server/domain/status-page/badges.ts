// SVG badges (shields.io's own badge-maker) and shields.io "endpoint" JSON for public monitors
// and the whole page: status, uptime over 24h/7d/30d, last response time.
import { makeBadge } from 'badge-maker';
import { xmlSafe } from './xml-text.ts';
import { STATUS_LABEL, formatPercent, type MonitorView, type Status, type StatusPageView } from '../../../lib/status.ts';

export type BadgeMetric = 'status' | 'uptime-24h' | 'uptime-7d' | 'uptime-30d' | 'response-time';
export const BADGE_METRICS: readonly BadgeMetric[] = ['status', 'uptime-24h', 'uptime-7d', 'uptime-30d', 'response-time'];

const STATUS_BADGE_COLOR: Record<Status, string> = {
  operational: 'brightgreen',
  degraded: 'orange',
  down: 'red',
  unknown: 'lightgrey',
  maintenance: 'blue',
};

export interface BadgeContent {
  label: string;
  message: string;
  color: string;
}

function uptimeColor(p: number | null): string {
  if (p == null) return 'lightgrey';
  return p >= 99.9 ? 'brightgreen' : p >= 99 ? 'yellow' : 'red';
}

/** What a badge says; `monitor` null means the page as a whole (status only). */
export function badgeContent(view: StatusPageView, monitor: MonitorView | null, metric: BadgeMetric): BadgeContent {
  if (!monitor) return { label: 'status', message: view.overall.text.toLowerCase(), color: STATUS_BADGE_COLOR[view.overall.status] };
  switch (metric) {
    case 'status':
      return { label: monitor.name, message: STATUS_LABEL[monitor.status].toLowerCase(), color: STATUS_BADGE_COLOR[monitor.status] };
    case 'uptime-24h':
    case 'uptime-7d':
    case 'uptime-30d': {
      const p = metric === 'uptime-24h' ? monitor.uptime24h : metric === 'uptime-7d' ? monitor.uptime7d : monitor.uptime30d;
      return { label: `uptime ${metric.slice(7)}`, message: p == null ? 'no data' : formatPercent(p), color: uptimeColor(p) };
    }
    case 'response-time': {
      const ms = monitor.lastResponseTimeMs;
      const color = ms == null ? 'lightgrey' : ms > 1000 ? 'red' : ms > 500 ? 'yellow' : 'brightgreen';
      return { label: 'response time', message: ms == null ? 'no data' : `${Math.round(ms)} ms`, color };
    }
  }
}

/** The SVG; text XML does not allow is dropped first, or the badge would measure and draw as 0×0. */
export function badgeSvg(c: BadgeContent, style: 'flat' | 'flat-square' | 'for-the-badge' | 'plastic' = 'flat'): string {
  return makeBadge({ label: xmlSafe(c.label), message: xmlSafe(c.message), color: c.color, style });
}

/** shields.io endpoint badge JSON (https://shields.io/badges/endpoint-badge): shields draws it as SVG. */
export function shieldsEndpoint(c: BadgeContent) {
  return { schemaVersion: 1 as const, label: xmlSafe(c.label), message: xmlSafe(c.message), color: c.color, cacheSeconds: 60 };
}
