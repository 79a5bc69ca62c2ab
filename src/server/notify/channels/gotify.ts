// Gotify (https://gotify.net/docs/pushmsg, https://gotify.net/docs/msgextras): a JSON POST to
// /message on the company's server with the application token in X-Gotify-Key. The message is
// Markdown (the client::display extra says so), with every name escaped; a tap opens the
// console (client::notification click). Priority by severity on Gotify's 0–10 scale, where the
// Android app pops up 8 and above and sounds from 4.
import {
  alertLinks,
  EVENT_LABELS,
  escapeMarkdown,
  isAllClear,
  isGrouped,
  monitorLines,
  monitorsOf,
  SEVERITY_LABELS,
  truncate,
} from './alert-text.ts';
import type { Alert, AlertSeverity, HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { gotifyForm } from '../../../lib/channel-forms/gotify.ts';
import { parseFields } from './config-fields.ts';
import { serverBase } from './incident-key.ts';

export interface GotifyConfig {
  server_url: string;
  app_token: string;
}

const PRIORITY: Record<AlertSeverity, number> = { critical: 10, high: 8, medium: 5, low: 3, info: 1 };

function priorityOf(alert: Alert): number {
  if (isAllClear(alert) || alert.event === 'test' || alert.event === 'incident.acknowledged') return 4;
  return PRIORITY[alert.severity];
}

function message(alert: Alert): string {
  const monitors = monitorsOf(alert);
  const parts = [escapeMarkdown(truncate(alert.message, 2000)), `*${EVENT_LABELS[alert.event]} · ${SEVERITY_LABELS[alert.severity]}*`];
  if (isGrouped(alert))
    parts.push(
      `**${monitors.length} monitors**\n\n${monitorLines(monitors, 6000, (m) => `- ${escapeMarkdown(truncate(`${m.name} ${m.target}`, 200))}`).join('\n')}`,
    );
  else if (monitors[0])
    parts.push(`**${escapeMarkdown(truncate(monitors[0].name, 200))}** ${escapeMarkdown(truncate(monitors[0].target, 300))}`);
  parts.push(
    alertLinks(alert)
      .map((l) => `[${l.label}](<${l.url}>)`)
      .join(' · '),
  );
  return parts.join('\n\n');
}

export const gotify: HttpChannel<GotifyConfig> = {
  type: 'gotify',
  label: gotifyForm.label,
  transport: 'http',
  secretFields: secretKeys(gotifyForm),
  grouping: 'hold',
  // The company's own server: Gotify documents no rate limit.
  minGapMs: () => 0,
  parseConfig: (raw) => parseFields<GotifyConfig>(raw, gotifyForm),
  tenantUrls: (config) => [config.server_url],
  build(alert, config) {
    return {
      url: `${serverBase(config.server_url)}/message`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gotify-key': config.app_token },
      body: JSON.stringify({
        title: truncate(`${alert.title} (${alert.company.name})`, 250),
        message: message(alert),
        priority: priorityOf(alert),
        extras: {
          'client::display': { contentType: 'text/markdown' },
          'client::notification': { click: { url: alert.consoleUrl } },
        },
      }),
    };
  },
};
