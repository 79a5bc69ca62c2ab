// Splunk On-Call (VictorOps) REST endpoint integration
// (https://help.victorops.com/knowledge-base/rest-endpoint-integration-guide/): a JSON POST to
// /integrations/generic/20131114/alert/{api_key}/{routing_key}. One Splunk On-Call incident per
// incident here: every event about it carries the same entity_id, so "opened" is CRITICAL (or
// WARNING / INFO by severity), "acknowledged" ACKNOWLEDGEMENT and "resolved" RECOVERY of that
// entity. A maintenance occurrence is an INFO entity that its end recovers.
import { EVENT_LABELS, isGrouped, monitorLines, monitorsOf, plainSummary, SEVERITY_LABELS, truncate } from './alert-text.ts';
import type { Alert, AlertSeverity, HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { splunkOncallForm } from '../../../lib/channel-forms/splunk-oncall.ts';
import { parseFields } from './config-fields.ts';
import { incidentAction, incidentKey } from './incident-key.ts';

export interface SplunkOncallConfig {
  api_key: string;
  routing_key: string;
}

type MessageType = 'CRITICAL' | 'WARNING' | 'INFO' | 'ACKNOWLEDGEMENT' | 'RECOVERY';

const OPEN_TYPE: Record<AlertSeverity, MessageType> = {
  critical: 'CRITICAL',
  high: 'CRITICAL',
  medium: 'WARNING',
  low: 'WARNING',
  info: 'INFO',
};

export function splunkMessageType(alert: Alert): MessageType {
  const action = incidentAction(alert);
  if (action === 'resolve') return 'RECOVERY';
  if (action === 'acknowledge') return 'ACKNOWLEDGEMENT';
  if (alert.event === 'test' || alert.maintenance) return 'INFO';
  return OPEN_TYPE[alert.severity];
}

function stateMessage(alert: Alert): string {
  const monitors = monitorsOf(alert);
  const lines = [alert.message, '', `Company: ${alert.company.name}`, `Severity: ${SEVERITY_LABELS[alert.severity]}`];
  if (isGrouped(alert)) lines.push('', ...monitorLines(monitors, 8000, (m) => `- ${m.name} (${m.target})`));
  else if (monitors[0]) lines.push(`Monitor: ${monitors[0].name} (${monitors[0].target})`);
  lines.push('', `Console: ${alert.consoleUrl}`, `Status page: ${alert.statusPageUrl}`);
  return truncate(lines.join('\n'), 10_000);
}

export const splunkOncall: HttpChannel<SplunkOncallConfig> = {
  type: 'splunk-oncall',
  label: splunkOncallForm.label,
  transport: 'http',
  secretFields: secretKeys(splunkOncallForm),
  grouping: 'never',
  // One entity per incident; the endpoint answers 429 when it wants us slower, so no gap of ours.
  minGapMs: () => 0,
  parseConfig: (raw) => parseFields<SplunkOncallConfig>(raw, splunkOncallForm),
  tenantUrls: () => [],
  build(alert, config, env) {
    const base = env.apiBase.splunkOncall.replace(/\/+$/, '');
    const monitor = monitorsOf(alert).length === 1 ? monitorsOf(alert)[0] : null;
    const type = splunkMessageType(alert);
    const body: Record<string, unknown> = {
      message_type: type,
      entity_id: incidentKey(alert),
      entity_display_name: truncate(plainSummary(alert), 255),
      state_message: stateMessage(alert),
      state_start_time: Math.floor(alert.occurredAt / 1000),
      monitoring_tool: truncate(env.productName, 100),
      statuswatch_event: EVENT_LABELS[alert.event],
      statuswatch_console_url: alert.consoleUrl,
    };
    if (monitor) body.host_name = truncate(monitor.target, 255);
    if (type === 'ACKNOWLEDGEMENT') {
      body.ack_author = truncate(env.productName, 100);
      body.ack_msg = truncate(alert.message, 1000);
    }
    return {
      url: `${base}/integrations/generic/20131114/alert/${encodeURIComponent(config.api_key)}/${encodeURIComponent(config.routing_key)}`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    };
  },
};
