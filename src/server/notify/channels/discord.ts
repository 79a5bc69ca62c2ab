// Discord webhook (https://discord.com/developers/docs/resources/webhook#execute-webhook): a
// one-line `content` and one embed coloured by severity, within Discord's limits (content
// 2,000, embed title 256, description 4,096, field value 1,024, 6,000 per embed). Mentions are
// switched off: a monitor named "@everyone" pings nobody. The webhook URL holds its token.
import {
  alertLinks,
  EVENT_LABELS,
  escapeMarkdown,
  isGrouped,
  isoTime,
  monitorLines,
  monitorsOf,
  SEVERITY_LABELS,
  senderLine,
  TONE_COLOURS,
  toneOf,
  truncate,
} from './alert-text.ts';
import type { Alert, HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { discordForm } from '../../../lib/channel-forms/discord.ts';
import { parseFields } from './config-fields.ts';

export interface DiscordConfig {
  url: string;
}

function description(alert: Alert): string {
  const links = alertLinks(alert)
    .map((l) => `[${l.label}](${l.url})`)
    .join(' · ');
  const parts = [escapeMarkdown(truncate(alert.message, 1500))];
  if (isGrouped(alert)) {
    const monitors = monitorsOf(alert);
    const budget = 4096 - parts[0].length - links.length - 40;
    parts.push(
      `**${monitors.length} monitors**\n${monitorLines(monitors, budget, (m) => `• ${escapeMarkdown(truncate(`${m.name} ${m.target}`, 200))}`).join('\n')}`,
    );
  }
  parts.push(links);
  return truncate(parts.join('\n\n'), 4096);
}

export const discord: HttpChannel<DiscordConfig> = {
  type: 'discord',
  label: discordForm.label,
  transport: 'http',
  secretFields: secretKeys(discordForm),
  grouping: 'hold',
  // Webhooks allow 5 requests per 2 s, and a channel takes 30 messages a minute: one per 2 s keeps both.
  minGapMs: () => 2000,
  parseConfig: (raw) => parseFields<DiscordConfig>(raw, discordForm),
  tenantUrls: (config) => [config.url],
  build(alert, config, env) {
    const monitors = monitorsOf(alert);
    const fields = [
      { name: 'Event', value: EVENT_LABELS[alert.event], inline: true },
      { name: 'Severity', value: SEVERITY_LABELS[alert.severity], inline: true },
    ];
    if (monitors.length === 1)
      fields.push({ name: 'Monitor', value: escapeMarkdown(truncate(`${monitors[0].name}\n${monitors[0].target}`, 1000)), inline: false });
    const embed = {
      title: truncate(alert.title, 256),
      description: description(alert),
      url: alert.consoleUrl,
      color: Number.parseInt(TONE_COLOURS[toneOf(alert)].slice(1), 16),
      timestamp: isoTime(alert),
      fields,
      footer: { text: senderLine(alert, env.productName) },
    };
    return {
      url: config.url,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        content: truncate(escapeMarkdown(`${alert.title} (${alert.company.name})`), 2000),
        embeds: [embed],
        allowed_mentions: { parse: [] },
      }),
    };
  },
};
