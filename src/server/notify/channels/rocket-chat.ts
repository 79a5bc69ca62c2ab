// Rocket.Chat incoming webhook (https://docs.rocket.chat/docs/integrations): JSON `text` in
// Rocket.Chat's Markdown, every name escaped, and one coloured attachment with the details.
// The hook URL holds the token, so it is the secret.
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
import { rocketChatForm } from '../../../lib/channel-forms/rocket-chat.ts';
import { parseFields } from './config-fields.ts';

export interface RocketChatConfig {
  url: string;
}

// Rocket.Chat refuses a message over Message_MaxAllowedSize, 5,000 characters by default.
export const ROCKET_CHAT_TEXT_LIMIT = 5000;

export const rocketChat: HttpChannel<RocketChatConfig> = {
  type: 'rocket-chat',
  label: rocketChatForm.label,
  transport: 'http',
  secretFields: secretKeys(rocketChatForm),
  grouping: 'hold',
  // Rocket.Chat's REST rate limiter, which serves the /hooks routes too, allows 10 calls a minute
  // per endpoint by default (Administration → Rate Limiter); held grouping keeps most teams far below.
  minGapMs: () => 6000,
  parseConfig: (raw) => parseFields<RocketChatConfig>(raw, rocketChatForm),
  tenantUrls: (config) => [config.url],
  build(alert, config, env) {
    const monitors = monitorsOf(alert);
    const links = alertLinks(alert)
      .map((l) => `[${l.label}](${l.url})`)
      .join(' · ');
    const parts = [`*${escapeMarkdown(truncate(alert.title, 300))}*`, escapeMarkdown(truncate(alert.message, 1500))];
    if (isGrouped(alert)) {
      const budget = ROCKET_CHAT_TEXT_LIMIT - parts.join('\n\n').length - links.length - 100;
      parts.push(
        `*${monitors.length} monitors*\n${monitorLines(monitors, budget, (m) => `- ${escapeMarkdown(truncate(`${m.name} ${m.target}`, 200))}`).join('\n')}`,
      );
    }
    parts.push(links);
    const fields = [
      { short: true, title: 'Severity', value: SEVERITY_LABELS[alert.severity] },
      { short: true, title: 'Company', value: truncate(alert.company.name, 200) },
    ];
    if (monitors.length === 1)
      fields.push({ short: false, title: 'Monitor', value: truncate(`${monitors[0].name} ${monitors[0].target}`, 500) });
    return {
      url: config.url,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        alias: truncate(env.productName, 100),
        text: truncate(parts.join('\n\n'), ROCKET_CHAT_TEXT_LIMIT),
        attachments: [
          {
            title: EVENT_LABELS[alert.event],
            title_link: alert.consoleUrl,
            color: TONE_COLOURS[toneOf(alert)],
            fields,
            ts: new Date(alert.occurredAt).toISOString(),
          },
        ],
      }),
    };
  },
};
