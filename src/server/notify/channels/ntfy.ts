// ntfy (https://docs.ntfy.sh/publish/#publish-as-json): a JSON message posted to the root of
// the tenant's ntfy server (ntfy.sh or their own), naming the topic inside, so titles and
// names outside ASCII need no header encoding. On a public server the topic name is the only
// thing keeping a feed private, so it is kept secret like the access token.
import { alertLinks, isAllClear, isGrouped, monitorLines, monitorsOf, truncate } from './alert-text.ts';
import type { Alert, AlertSeverity, HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { ntfyForm } from '../../../lib/channel-forms/ntfy.ts';
import { parseFields } from './config-fields.ts';

export interface NtfyConfig {
  server_url: string;
  topic: string;
  /** An access token (tk_…) for a server or topic that requires one */
  access_token: string | null;
}

const PRIORITY: Record<AlertSeverity, number> = { critical: 5, high: 4, medium: 3, low: 2, info: 1 };

// ntfy turns a message over 4,096 bytes into an attachment: the text stays under it in UTF-8.
function message(alert: Alert): string {
  const monitors = monitorsOf(alert);
  const parts = [truncate(alert.message, 1000)];
  if (isGrouped(alert))
    parts.push(`${monitors.length} monitors:\n${monitorLines(monitors, 1500, (m) => `- ${truncate(m.name, 100)}`).join('\n')}`);
  else if (monitors[0]) parts.push(`Monitor: ${truncate(`${monitors[0].name} (${monitors[0].target})`, 300)}`);
  return parts.join('\n\n');
}

function tags(alert: Alert): string[] {
  if (isAllClear(alert)) return ['white_check_mark'];
  if (alert.event === 'test') return ['bell'];
  return alert.severity === 'critical' || alert.severity === 'high' ? ['rotating_light'] : ['warning'];
}

export const ntfy: HttpChannel<NtfyConfig> = {
  type: 'ntfy',
  label: ntfyForm.label,
  transport: 'http',
  secretFields: secretKeys(ntfyForm),
  grouping: 'hold',
  // ntfy.sh refills a visitor's request budget at one every 5 s after a burst of 60; 1 s is its publish guidance.
  minGapMs: () => 1000,
  parseConfig: (raw) => parseFields<NtfyConfig>(raw, ntfyForm),
  tenantUrls: (config) => [config.server_url],
  build(alert, config) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (config.access_token) headers.authorization = `Bearer ${config.access_token}`;
    const ack = alertLinks(alert).find((l) => l.label === 'Acknowledge');
    const actions = [{ action: 'view', label: 'Open', url: alert.consoleUrl, clear: false }];
    if (ack) actions.push({ action: 'view', label: 'Acknowledge', url: ack.url, clear: true });
    return {
      url: new URL('/', config.server_url).href,
      method: 'POST',
      headers,
      body: JSON.stringify({
        topic: config.topic,
        title: truncate(`${alert.title} (${alert.company.name})`, 250),
        message: message(alert),
        priority: isAllClear(alert) ? 3 : PRIORITY[alert.severity],
        tags: tags(alert),
        click: alert.consoleUrl,
        actions,
      }),
    };
  },
};
