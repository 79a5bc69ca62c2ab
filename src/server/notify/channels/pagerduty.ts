// PagerDuty Events API v2 (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/).
// An incident is one PagerDuty alert: every event about it carries the same dedup_key, so
// "opened" triggers, "acknowledged" acknowledges and "resolved" resolves that alert, and a
// repeated delivery after a crash folds into it. Maintenance is not a page: it goes to the
// Change Events endpoint, which shows on the service's timeline without waking anyone.
import { alertLinks, EVENT_LABELS, monitorsOf, plainSummary, truncate } from './alert-text.ts';
import type { Alert, AlertSeverity, HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { pagerdutyForm } from '../../../lib/channel-forms/pagerduty.ts';
import { parseFields } from './config-fields.ts';

export interface PagerDutyConfig {
  /** The integration key of an Events API v2 integration on a PagerDuty service */
  routing_key: string;
}

const PD_SEVERITY: Record<AlertSeverity, 'critical' | 'error' | 'warning' | 'info'> = {
  critical: 'critical',
  high: 'error',
  medium: 'warning',
  low: 'info',
  info: 'info',
};

/** One key per incident; events without one group per monitor and kind (a daily certificate warning updates one alert). */
export function pagerDutyDedupKey(alert: Alert): string {
  if (alert.incident) return `statuswatch-${alert.incident.id}`;
  const monitor = monitorsOf(alert)[0];
  if (monitor && alert.event !== 'test') return `statuswatch-${alert.event}-${monitor.id}`;
  return `statuswatch-${alert.deliveryId}`;
}

function action(alert: Alert): 'trigger' | 'acknowledge' | 'resolve' {
  if (alert.event === 'incident.resolved') return 'resolve';
  if (alert.event === 'incident.acknowledged') return 'acknowledge';
  return 'trigger';
}

function details(alert: Alert): Record<string, unknown> {
  const monitors = monitorsOf(alert);
  return {
    event: EVENT_LABELS[alert.event],
    message: truncate(alert.message, 2000),
    company: alert.company.name,
    incident: alert.incident ? { title: alert.incident.title, status: alert.incident.status, impact: alert.incident.impact } : null,
    ...(alert.maintenance ? { maintenance: maintenanceDetails(alert.maintenance) } : {}),
    monitor_count: monitors.length,
    // PagerDuty caps an event at 512 KB; 100 monitors named is plenty to act on.
    monitors: monitors.slice(0, 100).map((m) => `${m.name} (${m.target})`),
  };
}

/** Change events have no dedup_key: the window's id and occurrence times let a reader pair started with ended. */
const maintenanceDetails = (m: NonNullable<Alert['maintenance']>) => ({
  id: m.id,
  title: m.title,
  starts_at: new Date(m.starts_at).toISOString(),
  ends_at: new Date(m.ends_at).toISOString(),
});

/**
 * PagerDuty requires a non-blank `payload.source` (the affected system, preferably a host name)
 * and drops the event otherwise. Push monitors have no target (their job calls us), so they are
 * named by monitor and company instead.
 */
export function sourceOf(alert: Alert, productName: string): string {
  const monitor = monitorsOf(alert)[0];
  const company = alert.company.subdomain.trim() || alert.company.name.trim() || productName;
  const candidates = [monitor?.target, monitor && `${monitor.name} (${company} on ${productName})`, `${company} (${productName})`];
  return candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '')!;
}

export const pagerduty: HttpChannel<PagerDutyConfig> = {
  type: 'pagerduty',
  label: pagerdutyForm.label,
  transport: 'http',
  secretFields: secretKeys(pagerdutyForm),
  grouping: 'never',
  // One event per incident (its dedup_key); Events API v2 takes 120 events a minute per integration key.
  minGapMs: () => 500,
  parseConfig: (raw) => parseFields<PagerDutyConfig>(raw, pagerdutyForm),
  tenantUrls: () => [],
  build(alert, config, env) {
    const base = env.apiBase.pagerduty.replace(/\/+$/, '');
    const links = alertLinks(alert)
      .filter((l) => l.label !== 'Acknowledge')
      .map((l) => ({ href: l.url, text: l.label }));
    const source = sourceOf(alert, env.productName);
    const timestamp = new Date(alert.occurredAt).toISOString();
    const summary = truncate(plainSummary(alert), 1024);
    if (alert.event === 'maintenance.started' || alert.event === 'maintenance.ended') {
      return {
        url: `${base}/v2/change/enqueue`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          routing_key: config.routing_key,
          payload: { summary, timestamp, source: truncate(source, 255), custom_details: details(alert) },
          links,
        }),
      };
    }
    return {
      url: `${base}/v2/enqueue`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        routing_key: config.routing_key,
        event_action: action(alert),
        dedup_key: pagerDutyDedupKey(alert),
        payload: {
          summary,
          source: truncate(source, 255),
          severity: PD_SEVERITY[alert.severity],
          timestamp,
          component: monitorsOf(alert).length === 1 ? truncate(monitorsOf(alert)[0].name, 255) : undefined,
          group: truncate(alert.company.name, 255),
          class: alert.event,
          custom_details: details(alert),
        },
        links,
        client: env.productName,
        client_url: alert.consoleUrl,
      }),
    };
  },
};
