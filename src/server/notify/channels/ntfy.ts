// ntfy (https://docs.ntfy.sh/publish/#publish-as-json): a JSON message posted to the root of
// the tenant's ntfy server (ntfy.sh or their own), naming the topic inside, so titles and
// names outside ASCII need no header encoding. On a public server the topic name is the only
// thing keeping a feed private, so it is kept secret like the access token.
import { alertLinks, isAllClear, isGrouped, monitorLines, monitorsOf, truncate } from './alert-text.ts';
import type { Alert, AlertSeverity, HttpChannel } from './channel.ts';
import { configObject, httpUrl, onlyFields, optionalString, requiredString } from './config-fields.ts';

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
  label: 'ntfy',
  transport: 'http',
  secretFields: ['topic', 'access_token'],
  parseConfig(raw) {
    const fields = configObject(raw);
    onlyFields(fields, ['server_url', 'topic', 'access_token']);
    return {
      server_url: httpUrl({ server_url: fields.server_url ?? 'https://ntfy.sh' }, 'server_url', 'Server URL'),
      topic: requiredString(fields, 'topic', {
        label: 'Topic',
        max: 64,
        pattern: /^[-_A-Za-z0-9]+$/,
        expected: 'letters, digits, - and _ only',
      }),
      access_token: optionalString(fields, 'access_token', {
        label: 'Access token',
        max: 64,
        pattern: /^tk_[A-Za-z0-9]{29}$/,
        expected: 'an ntfy access token (tk_ and 29 letters or digits)',
      }),
    };
  },
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
