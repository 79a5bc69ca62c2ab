// What every chat and paging channel says about an alert, before each service's own markup:
// which monitors, what colour, which links, within which length. Pure functions.
import type { Alert, AlertEventType, AlertMonitorRef, AlertSeverity } from './channel.ts';

export const SEVERITY_LABELS: Record<AlertSeverity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
};

export const EVENT_LABELS: Record<AlertEventType, string> = {
  'incident.opened': 'Incident opened',
  'incident.resolved': 'Incident resolved',
  'incident.degraded': 'Degraded',
  'incident.acknowledged': 'Acknowledged',
  'incident.escalated': 'Escalated',
  ssl_warning: 'Certificate warning',
  dns_warning: 'DNS warning',
  security_report: 'Security report',
  'maintenance.started': 'Maintenance started',
  'maintenance.ended': 'Maintenance ended',
  'anomaly.opened': 'Anomaly',
  'anomaly.resolved': 'Anomaly ended',
  test: 'Test message',
};

/** Events that end a problem rather than report one: shown green whatever the severity. */
export function isAllClear(alert: Alert): boolean {
  return alert.event === 'incident.resolved' || alert.event === 'maintenance.ended' || alert.event === 'anomaly.resolved';
}

export type Tone = 'danger' | 'warning' | 'good' | 'accent' | 'neutral';

export function toneOf(alert: Alert): Tone {
  if (isAllClear(alert)) return 'good';
  if (alert.event === 'incident.acknowledged' || alert.event === 'maintenance.started' || alert.event === 'test') return 'accent';
  if (alert.severity === 'critical' || alert.severity === 'high') return 'danger';
  if (alert.severity === 'medium' || alert.severity === 'low') return 'warning';
  return 'neutral';
}

export const TONE_COLOURS: Record<Tone, string> = {
  danger: '#D92D20',
  warning: '#F79009',
  good: '#12B76A',
  accent: '#2E90FA',
  neutral: '#667085',
};

/** The monitors an alert is about: the grouped list, else its one monitor, else none. */
export function monitorsOf(alert: Alert): AlertMonitorRef[] {
  if (alert.monitors.length > 0) return alert.monitors;
  return alert.monitor ? [alert.monitor] : [];
}

export function isGrouped(alert: Alert): boolean {
  return alert.monitors.length > 1;
}

/** Cuts to at most `max` UTF-16 units (what the services count), never inside a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return text.slice(0, cut) + '…';
}

/**
 * Lines listing the monitors, as many as fit in `budget` characters (joined by newlines), the
 * rest counted in a last line: 1,000 monitors make one message of bounded size.
 */
export function monitorLines(monitors: AlertMonitorRef[], budget: number, line: (m: AlertMonitorRef) => string): string[] {
  const lines: string[] = [];
  let used = 0;
  for (let i = 0; i < monitors.length; i++) {
    const next = line(monitors[i]);
    const rest = monitors.length - i - 1;
    // Room is kept for the "…and N more" line whenever monitors remain after this one.
    const reserve = rest > 0 ? 24 : 0;
    if (used + next.length + 1 + reserve > budget) {
      lines.push(`…and ${monitors.length - i} more`);
      return lines;
    }
    lines.push(next);
    used += next.length + 1;
  }
  return lines;
}

export function isoTime(alert: Alert): string {
  return new Date(alert.occurredAt).toISOString();
}

/** Links a reader can follow, in the order they are shown. */
export function alertLinks(alert: Alert): Array<{ label: string; url: string }> {
  const links = [{ label: 'Open in console', url: alert.consoleUrl }];
  if (alert.acknowledgeUrl) links.push({ label: 'Acknowledge', url: alert.acknowledgeUrl });
  links.push({ label: 'Status page', url: alert.statusPageUrl });
  return links;
}

/** Whose alert and who sent it, for a footer or subtitle. */
export function senderLine(alert: Alert, productName: string): string {
  return truncate(`${alert.company.name} · ${productName}`, 200);
}

/** One plain-text line: what happened and where, for SMS, previews and summaries. */
export function plainSummary(alert: Alert): string {
  const monitors = monitorsOf(alert);
  const about = monitors.length > 1 ? ` (${monitors.length} monitors)` : '';
  return `[${alert.company.name}] ${alert.title}${about}`;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Backslash before Markdown's punctuation, so a monitor named `*prod*` is not shown in italics. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_~|>[\]()#]/g, '\\$&');
}
