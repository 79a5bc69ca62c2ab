// Telegram Bot API sendMessage (https://core.telegram.org/bots/api#sendmessage) with HTML
// formatting: everything the tenant or a monitor named is escaped, so "<b>" in a monitor name
// shows as text instead of failing the whole message ("can't parse entities").
import { alertLinks, EVENT_LABELS, escapeHtml, isGrouped, monitorLines, monitorsOf, SEVERITY_LABELS, truncate } from './alert-text.ts';
import type { Alert, HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { telegramForm } from '../../../lib/channel-forms/telegram.ts';
import { configObject, parseFields } from './config-fields.ts';

export interface TelegramConfig {
  bot_token: string;
  /** A numeric chat id (groups are negative) or a public channel's @username */
  chat_id: string;
}

// Telegram counts the 4,096-character limit after the markup is parsed; the plain parts are cut first.
function text(alert: Alert): string {
  const monitors = monitorsOf(alert);
  const lines = [`<b>${escapeHtml(truncate(alert.title, 300))}</b>`, escapeHtml(truncate(alert.message, 1500)), ''];
  lines.push(`${EVENT_LABELS[alert.event]} · ${SEVERITY_LABELS[alert.severity]} · ${escapeHtml(truncate(alert.company.name, 200))}`);
  if (isGrouped(alert)) {
    lines.push('', `<b>${monitors.length} monitors</b>`);
    lines.push(...monitorLines(monitors, 1500, (m) => `• ${truncate(`${m.name} ${m.target}`, 120)}`).map(escapeHtml));
  } else if (monitors[0]) {
    lines.push(`Monitor: ${escapeHtml(truncate(monitors[0].name, 200))} <code>${escapeHtml(truncate(monitors[0].target, 300))}</code>`);
  }
  lines.push(
    '',
    alertLinks(alert)
      .map((l) => `<a href="${escapeHtml(l.url)}">${l.label}</a>`)
      .join(' · '),
  );
  return lines.join('\n');
}

export const telegram: HttpChannel<TelegramConfig> = {
  type: 'telegram',
  label: telegramForm.label,
  transport: 'http',
  secretFields: secretKeys(telegramForm),
  grouping: 'hold',
  // About 1 message a second per chat, 20 a minute in groups and channels (core.telegram.org/bots/faq).
  minGapMs: (c) => (/^[-@]/.test(String(c.chat_id ?? '')) ? 3000 : 1000),
  parseConfig(raw) {
    // A numeric chat ID may come as a JSON number: it is read as its digits.
    const fields = configObject(raw);
    const chatId = fields.chat_id;
    return parseFields(
      { ...fields, chat_id: typeof chatId === 'number' ? String(chatId) : chatId },
      telegramForm,
    ) as unknown as TelegramConfig;
  },
  tenantUrls: () => [],
  build(alert, config, env) {
    const base = env.apiBase.telegram.replace(/\/+$/, '');
    return {
      url: `${base}/bot${config.bot_token}/sendMessage`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: config.chat_id, text: text(alert), parse_mode: 'HTML', link_preview_options: { is_disabled: true } }),
    };
  },
};
