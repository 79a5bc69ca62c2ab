// Zenduty Generic Integration (https://zenduty.com/docs/generic-integration/): a JSON POST to
// /api/events/{integration_key}/. One Zenduty alert per incident here: every event about it
// carries the same entity_id, so "opened" is critical, error, warning or info by severity,
// "acknowledged" acknowledged and "resolved" resolved. A maintenance occurrence is an info alert
// that its end resolves.
import { alertLinks, EVENT_LABELS, isGrouped, monitorLines, monitorsOf, plainSummary, SEVERITY_LABELS, truncate } from './alert-text.ts';
import type { Alert, AlertSeverity, HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { zendutyForm } from '../../../lib/channel-forms/zenduty.ts';
import { parseFields } from './config-fields.ts';
import { incidentAction, incidentKey } from './incident-key.ts';

export interface ZendutyConfig {
  integration_key: string;
}

type AlertType = 'critical' | 'acknowledged' | 'resolved' | 'error' | 'warning' | 'info';

const OPEN_TYPE: Record<AlertSeverity, AlertType> = {
  critical: 'critical',
  high: 'error',
  medium: 'warning',
  low: 'warning',
  info: 'info',
};

export function zendutyAlertType(alert: Alert): AlertType {
  const action = incidentAction(alert);
  if (action === 'resolve') return 'resolved';
  if (action === 'acknowledge') return 'acknowledged';
  if (alert.event === 'test' || alert.maintenance) return 'info';
  return OPEN_TYPE[alert.severity];
}

function summary(alert: Alert): string {
  const monitors = monitorsOf(alert);
  const lines = [
    alert.message,
    '',
    `Event: ${EVENT_LABELS[alert.event]}`,
    `Company: ${alert.company.name}`,
    `Severity: ${SEVERITY_LABELS[alert.severity]}`,
  ];
  if (isGrouped(alert)) lines.push('', ...monitorLines(monitors, 8000, (m) => `- ${m.name} (${m.target})`));
  else if (monitors[0]) lines.push(`Monitor: ${monitors[0].name} (${monitors[0].target})`);
  return truncate(lines.join('\n'), 10_000);
}

export const zenduty: HttpChannel<ZendutyConfig> = {
  type: 'zenduty',
  label: zendutyForm.label,
  transport: 'http',
  secretFields: secretKeys(zendutyForm),
  grouping: 'never',
  // One alert per incident (its entity_id); the API answers 429 when it wants us slower.
  minGapMs: () => 0,
  parseConfig: (raw) => parseFields<ZendutyConfig>(raw, zendutyForm),
  tenantUrls: () => [],
  build(alert, config, env) {
    const base = env.apiBase.zenduty.replace(/\/+$/, '');
    const monitors = monitorsOf(alert);
    return {
      url: `${base}/api/events/${encodeURIComponent(config.integration_key)}/`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        alert_type: zendutyAlertType(alert),
        message: truncate(plainSummary(alert), 255),
        summary: summary(alert),
        entity_id: incidentKey(alert),
        payload: {
          company: alert.company.name,
          event: alert.event,
          severity: alert.severity,
          incident: alert.incident,
          monitors: monitors.slice(0, 100).map((m) => ({ name: m.name, target: m.target })),
          monitor_count: monitors.length,
          occurred_at: new Date(alert.occurredAt).toISOString(),
        },
        urls: alertLinks(alert)
          .filter((l) => l.label !== 'Acknowledge')
          .map((l) => ({ link_url: l.url, link_text: l.label })),
      }),
    };
  },
};
