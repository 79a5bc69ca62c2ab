// Opsgenie Alert API (https://docs.opsgenie.com/docs/alert-api): one Opsgenie alert per
// incident, named by its alias; "resolved" closes it and "acknowledged" acknowledges it through
// the alias. A maintenance occurrence is one (P5) alert too: "started" opens it, "ended" closes it. EU accounts set OPSGENIE_API_URL=https://api.eu.opsgenie.com.
import { EVENT_LABELS, isGrouped, monitorLines, monitorsOf, plainSummary, SEVERITY_LABELS, truncate } from './alert-text.ts';
import type { Alert, AlertSeverity, HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { opsgenieForm } from '../../../lib/channel-forms/opsgenie.ts';
import { parseFields } from './config-fields.ts';

export interface OpsgenieConfig {
  /** Key of an API integration (a UUID) */
  api_key: string;
}

const PRIORITY: Record<AlertSeverity, string> = { critical: 'P1', high: 'P2', medium: 'P3', low: 'P4', info: 'P5' };

export function opsgenieAlias(alert: Alert): string {
  if (alert.maintenance) return `statuswatch-maintenance-${alert.maintenance.id}-${alert.maintenance.starts_at}`;
  if (alert.incident) return `statuswatch-${alert.incident.id}`;
  const monitor = monitorsOf(alert)[0];
  if (monitor && alert.event !== 'test') return `statuswatch-${alert.event}-${monitor.id}`;
  return `statuswatch-${alert.deliveryId}`;
}

function description(alert: Alert): string {
  const lines = [alert.message, '', `Company: ${alert.company.name}`, `Severity: ${SEVERITY_LABELS[alert.severity]}`];
  if (isGrouped(alert)) lines.push('', ...monitorLines(monitorsOf(alert), 10_000, (m) => `- ${m.name} (${m.target})`));
  else if (monitorsOf(alert)[0]) lines.push(`Monitor: ${monitorsOf(alert)[0].name} (${monitorsOf(alert)[0].target})`);
  lines.push('', `Console: ${alert.consoleUrl}`, `Status page: ${alert.statusPageUrl}`);
  if (alert.acknowledgeUrl) lines.push(`Acknowledge: ${alert.acknowledgeUrl}`);
  return truncate(lines.join('\n'), 15_000);
}

export const opsgenie: HttpChannel<OpsgenieConfig> = {
  type: 'opsgenie',
  label: opsgenieForm.label,
  transport: 'http',
  secretFields: secretKeys(opsgenieForm),
  grouping: 'never',
  // One alert per incident (its alias dedups); the API answers 429 with Retry-After, so no gap of ours.
  minGapMs: () => 0,
  parseConfig: (raw) => parseFields<OpsgenieConfig>(raw, opsgenieForm),
  tenantUrls: () => [],
  build(alert, config, env) {
    const base = env.apiBase.opsgenie.replace(/\/+$/, '');
    const headers = { 'content-type': 'application/json', authorization: `GenieKey ${config.api_key}` };
    const alias = opsgenieAlias(alert);
    const note = truncate(`${EVENT_LABELS[alert.event]}: ${alert.message}`, 25_000);
    const source = truncate(env.productName, 100);
    if (alert.event === 'incident.resolved' || alert.event === 'incident.acknowledged' || alert.event === 'maintenance.ended') {
      const verb = alert.event === 'incident.acknowledged' ? 'acknowledge' : 'close';
      return {
        url: `${base}/v2/alerts/${encodeURIComponent(alias)}/${verb}?identifierType=alias`,
        method: 'POST',
        headers,
        body: JSON.stringify({ source, user: source, note }),
      };
    }
    const monitor = monitorsOf(alert).length === 1 ? monitorsOf(alert)[0] : null;
    return {
      url: `${base}/v2/alerts`,
      method: 'POST',
      headers,
      body: JSON.stringify({
        message: truncate(plainSummary(alert), 130),
        alias,
        description: description(alert),
        priority: PRIORITY[alert.severity],
        source,
        entity: truncate(monitor ? monitor.target : alert.company.name, 512),
        tags: ['statuswatch', alert.event.replace(/\./g, '-')],
        details: { company: alert.company.name, event: alert.event, console: alert.consoleUrl, monitors: String(monitorsOf(alert).length) },
        note,
      }),
    };
  },
};
