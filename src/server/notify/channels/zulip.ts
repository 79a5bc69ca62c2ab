// Zulip (https://zulip.com/api/send-message): a form-encoded POST to /api/v1/messages on the
// organisation's server, with HTTP Basic auth of the bot's e-mail and API key, to a stream and
// topic. Without a topic set, each incident gets a topic of its own named by the incident, so
// its opening, acknowledgement and resolution read as one thread. Content is Zulip's Markdown,
// every name escaped (a monitor named *prod* or @**all** is shown, not rendered or pinged).
import { alertLinks, EVENT_LABELS, escapeMarkdown, isGrouped, monitorLines, monitorsOf, SEVERITY_LABELS, truncate } from './alert-text.ts';
import type { Alert, HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { zulipForm } from '../../../lib/channel-forms/zulip.ts';
import { parseFields } from './config-fields.ts';
import { serverBase } from './incident-key.ts';

export interface ZulipConfig {
  site_url: string;
  bot_email: string;
  api_key: string;
  stream: string;
  /** null: one topic per incident */
  topic: string | null;
}

// Zulip's limits: a topic of 60 characters, a message of 10,000 bytes.
export const ZULIP_TOPIC_LIMIT = 60;
const CONTENT_BUDGET = 9000;

export function zulipTopic(alert: Alert, config: Pick<ZulipConfig, 'topic'>): string {
  if (config.topic) return config.topic;
  if (alert.incident) return truncate(`${alert.incident.title} (#${alert.incident.id.slice(0, 8)})`, ZULIP_TOPIC_LIMIT);
  if (alert.maintenance) return truncate(`Maintenance: ${alert.maintenance.title}`, ZULIP_TOPIC_LIMIT);
  return alert.event === 'test' ? 'Test alerts' : truncate(alert.title, ZULIP_TOPIC_LIMIT);
}

function content(alert: Alert): string {
  const monitors = monitorsOf(alert);
  const parts = [`**${escapeMarkdown(truncate(alert.title, 300))}**`, escapeMarkdown(truncate(alert.message, 2000))];
  parts.push(`*${EVENT_LABELS[alert.event]} · ${SEVERITY_LABELS[alert.severity]} · ${escapeMarkdown(truncate(alert.company.name, 200))}*`);
  if (isGrouped(alert)) {
    const budget = CONTENT_BUDGET - parts.join('\n\n').length - 600;
    parts.push(
      `**${monitors.length} monitors**\n${monitorLines(monitors, budget, (m) => `* ${escapeMarkdown(truncate(`${m.name} ${m.target}`, 200))}`).join('\n')}`,
    );
  } else if (monitors[0])
    parts.push(
      `Monitor: **${escapeMarkdown(truncate(monitors[0].name, 200))}** \`${truncate(monitors[0].target, 300).replace(/`/g, "'")}\``,
    );
  parts.push(
    alertLinks(alert)
      .map((l) => `[${l.label}](${l.url})`)
      .join(' · '),
  );
  return parts.join('\n\n');
}

export const zulip: HttpChannel<ZulipConfig> = {
  type: 'zulip',
  label: zulipForm.label,
  transport: 'http',
  secretFields: secretKeys(zulipForm),
  grouping: 'hold',
  // Zulip's API allows 200 requests a minute per user (https://zulip.com/api/http-headers).
  minGapMs: () => 300,
  parseConfig: (raw) => parseFields<ZulipConfig>(raw, zulipForm),
  tenantUrls: (config) => [config.site_url],
  build(alert, config) {
    const auth = Buffer.from(`${config.bot_email}:${config.api_key}`).toString('base64');
    return {
      url: `${serverBase(config.site_url)}/api/v1/messages`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${auth}` },
      body: new URLSearchParams({
        type: 'stream',
        to: config.stream,
        topic: zulipTopic(alert, config),
        content: content(alert),
      }).toString(),
    };
  },
};
