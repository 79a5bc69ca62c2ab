// Mattermost incoming webhook (https://developers.mattermost.com/integrate/webhooks/incoming/):
// Markdown `text` and one coloured attachment with the details. The hook URL is the secret.
import {
  alertLinks,
  EVENT_LABELS,
  escapeMarkdown,
  isGrouped,
  monitorLines,
  monitorsOf,
  SEVERITY_LABELS,
  TONE_COLOURS,
  toneOf,
  truncate,
} from './alert-text.ts';
import type { HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { mattermostForm } from '../../../lib/channel-forms/mattermost.ts';
import { parseFields } from './config-fields.ts';

export interface MattermostConfig {
  url: string;
  /** Channel name overriding the hook's own, when the hook allows it */
  channel: string | null;
}

// A Mattermost post holds at most 16,383 characters.
const POST_LIMIT = 16383;

export const mattermost: HttpChannel<MattermostConfig> = {
  type: 'mattermost',
  label: mattermostForm.label,
  transport: 'http',
  secretFields: secretKeys(mattermostForm),
  grouping: 'hold',
  // Mattermost's default server rate limit is 10 requests a second per client.
  minGapMs: () => 100,
  parseConfig: (raw) => parseFields<MattermostConfig>(raw, mattermostForm),
  tenantUrls: (config) => [config.url],
  build(alert, config, env) {
    const monitors = monitorsOf(alert);
    const links = alertLinks(alert)
      .map((l) => `[${l.label}](${l.url})`)
      .join(' · ');
    const parts = [`#### ${escapeMarkdown(alert.title)}`, escapeMarkdown(truncate(alert.message, 3000))];
    if (isGrouped(alert)) {
      const budget = POST_LIMIT - parts.join('\n\n').length - links.length - 100;
      parts.push(
        `**${monitors.length} monitors**\n${monitorLines(monitors, budget, (m) => `- ${escapeMarkdown(`${m.name} ${m.target}`)}`).join('\n')}`,
      );
    }
    parts.push(links);
    const fields = [
      { short: true, title: 'Severity', value: SEVERITY_LABELS[alert.severity] },
      { short: true, title: 'Company', value: escapeMarkdown(alert.company.name) },
    ];
    if (monitors.length === 1)
      fields.push({ short: false, title: 'Monitor', value: escapeMarkdown(`${monitors[0].name} ${monitors[0].target}`) });
    const body: Record<string, unknown> = {
      text: truncate(parts.join('\n\n'), POST_LIMIT),
      attachments: [
        {
          fallback: truncate(`${alert.title} (${alert.company.name})`, 500),
          color: TONE_COLOURS[toneOf(alert)],
          title: EVENT_LABELS[alert.event],
          title_link: alert.consoleUrl,
          fields,
          footer: env.productName,
          ts: Math.floor(alert.occurredAt / 1000),
        },
      ],
    };
    if (config.channel) body.channel = config.channel;
    return { url: config.url, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  },
};
