// From a notification draft to the alert its channels receive: which AlertEventType it is, and
// whether a channel's filters (events, monitors, minimum severity) take it.
import type { AlertEventType, AlertSeverity } from '../channels/channel.ts';
import type { NotificationDraft } from '../draft.ts';

export const SEVERITIES: readonly AlertSeverity[] = ['info', 'low', 'medium', 'high', 'critical'];

/** Events a channel may choose (`test` is sent by the Send test action to one channel only). */
export const CHANNEL_EVENTS: readonly AlertEventType[] = [
  'incident.opened',
  'incident.resolved',
  'incident.degraded',
  'incident.acknowledged',
  'incident.escalated',
  'ssl_warning',
  'dns_warning',
  'security_report',
  'maintenance.started',
  'maintenance.ended',
  'anomaly.opened',
  'anomaly.resolved',
];

/** The alert event of a draft; null for drafts that stay in the console (`system`). */
export function alertEventOf(d: NotificationDraft): AlertEventType | null {
  switch (d.type) {
    case 'monitor_incident':
      if (d.metadata.event === 'opened') return 'incident.opened';
      if (d.metadata.event === 'resolved') return 'incident.resolved';
      // Maintenance notices (jobs/maintenance-notices.ts) are about the company's monitors too.
      if (d.metadata.event === 'maintenance.started' || d.metadata.event === 'maintenance.ended') return d.metadata.event;
      if (d.metadata.event === 'acknowledged') return 'incident.acknowledged';
      return null;
    case 'ssl_warning':
    case 'dns_warning':
    case 'security_report':
      return d.type;
    case 'anomaly':
      return d.metadata.event === 'resolved' ? 'anomaly.resolved' : 'anomaly.opened';
    case 'system':
      // Delivery failures are reported as `system`: sending those through channels could loop.
      return null;
  }
}

export interface ChannelFilter {
  events: readonly string[];
  monitorIds: readonly string[] | null;
  minSeverity: AlertSeverity;
}

/** Whether a channel takes an alert. An alert about no monitor passes any monitor filter. */
export function channelTakes(f: ChannelFilter, a: { event: AlertEventType; severity: AlertSeverity; monitorId: string | null }): boolean {
  if (!f.events.includes(a.event)) return false;
  if (f.monitorIds && a.monitorId && !f.monitorIds.includes(a.monitorId)) return false;
  return SEVERITIES.indexOf(a.severity) >= SEVERITIES.indexOf(f.minSeverity);
}
