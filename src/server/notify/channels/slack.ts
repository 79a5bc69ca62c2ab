// Slack incoming webhook (https://api.slack.com/messaging/webhooks): a Block Kit message, a
// header, the message, the monitors, the links and a context line, with `text` as the fallback
// that notifications and old clients show. The webhook URL is the secret.
import { alertLinks, EVENT_LABELS, isGrouped, monitorLines, monitorsOf, SEVERITY_LABELS, truncate } from './alert-text.ts';
import type { Alert, HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { slackForm } from '../../../lib/channel-forms/slack.ts';
import { parseFields } from './config-fields.ts';

export interface SlackConfig {
  url: string;
}

/** Slack's mrkdwn needs only these three escaped (https://api.slack.com/reference/surfaces/formatting#escaping). */
export function mrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// Block Kit limits: header text 150, section text 3,000, section field 2,000 characters.
function blocks(alert: Alert, productName: string): unknown[] {
  const out: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: truncate(alert.title, 150), emoji: true } },
    { type: 'section', text: { type: 'mrkdwn', text: truncate(mrkdwn(alert.message), 3000) } },
  ];
  const monitors = monitorsOf(alert);
  if (isGrouped(alert)) {
    const lines = monitorLines(monitors, 2900, (m) => `• *${mrkdwn(m.name)}* ${mrkdwn(m.target)}`);
    out.push({ type: 'section', text: { type: 'mrkdwn', text: `*${monitors.length} monitors*\n${lines.join('\n')}` } });
  } else {
    const fields = [{ type: 'mrkdwn', text: `*Severity*\n${SEVERITY_LABELS[alert.severity]}` }];
    if (monitors[0])
      fields.unshift({ type: 'mrkdwn', text: truncate(`*Monitor*\n${mrkdwn(monitors[0].name)}\n${mrkdwn(monitors[0].target)}`, 2000) });
    out.push({ type: 'section', fields });
  }
  out.push({
    type: 'section',
    text: {
      type: 'mrkdwn',
      text: alertLinks(alert)
        .map((l) => `<${mrkdwn(l.url)}|${l.label}>`)
        .join('  ·  '),
    },
  });
  const seconds = Math.floor(alert.occurredAt / 1000);
  const when = `<!date^${seconds}^{date_short_pretty} {time}|${new Date(alert.occurredAt).toISOString()}>`;
  out.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: truncate(`${EVENT_LABELS[alert.event]} · ${mrkdwn(alert.company.name)} · ${when} · ${mrkdwn(productName)}`, 3000),
      },
    ],
  });
  return out;
}

export const slack: HttpChannel<SlackConfig> = {
  type: 'slack',
  label: slackForm.label,
  transport: 'http',
  secretFields: secretKeys(slackForm),
  grouping: 'hold',
  // "1 message per second" per incoming webhook (api.slack.com/apis/rate-limits).
  minGapMs: () => 1000,
  parseConfig: (raw) => parseFields<SlackConfig>(raw, slackForm),
  tenantUrls: (config) => [config.url],
  build(alert, config, env) {
    const text = truncate(`${alert.title} (${alert.company.name})`, 3000);
    return {
      url: config.url,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: mrkdwn(text), blocks: blocks(alert, env.productName) }),
    };
  },
};
