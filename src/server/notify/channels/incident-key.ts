// One key per thing an on-call tool tracks as one alert: an incident, a maintenance occurrence,
// else a monitor's warning of one kind (a daily certificate warning updates one alert), else the
// delivery itself. Splunk On-Call's entity_id and Zenduty's entity_id are this key, so opened,
// acknowledged and resolved land on the same alert there, and a repeat after a crash folds in.
import { monitorsOf } from './alert-text.ts';
import type { Alert } from './channel.ts';

export function incidentKey(alert: Alert): string {
  if (alert.maintenance) return `statuswatch-maintenance-${alert.maintenance.id}-${alert.maintenance.starts_at}`;
  if (alert.incident) return `statuswatch-${alert.incident.id}`;
  const monitor = monitorsOf(alert)[0];
  if (monitor && alert.event !== 'test') return `statuswatch-${alert.event}-${monitor.id}`;
  return `statuswatch-${alert.deliveryId}`;
}

/** What an on-call tool does with the alert the key names. */
export function incidentAction(alert: Alert): 'open' | 'acknowledge' | 'resolve' {
  if (alert.event === 'incident.resolved' || alert.event === 'maintenance.ended') return 'resolve';
  if (alert.event === 'incident.acknowledged') return 'acknowledge';
  return 'open';
}

/** The base of a tenant's server URL without trailing slashes, for appending an API path (a server may live under a path). */
export function serverBase(url: string): string {
  return url.replace(/\/+$/, '');
}
