// Pushover Message API (https://pushover.net/api): a form POST to /1/messages.json with the
// application's token and the user's key. The message is at most 1,024 characters and the title
// 250 (Pushover refuses longer ones); with html=1 the message may carry <b> and <a> tags, so
// every name in it is escaped. Priority by severity: 1 (high, through the user's quiet hours)
// for critical and high, 0 for medium and every all-clear, -1 (no sound) for the rest. Emergency
// priority (2) is not used: it repeats until acknowledged in Pushover, and a resolution here
// could not stop it in the same request.
import {
  alertLinks,
  EVENT_LABELS,
  escapeHtml,
  isAllClear,
  isGrouped,
  monitorLines,
  monitorsOf,
  SEVERITY_LABELS,
  truncate,
} from './alert-text.ts';
import type { Alert, AlertSeverity, HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { pushoverForm } from '../../../lib/channel-forms/pushover.ts';
import { parseFields } from './config-fields.ts';

export interface PushoverConfig {
  api_token: string;
  user_key: string;
  /** Comma-separated device names; null: all the user's devices */
  device: string | null;
}

export const PUSHOVER_MESSAGE_LIMIT = 1024;
export const PUSHOVER_TITLE_LIMIT = 250;

const PRIORITY: Record<AlertSeverity, number> = { critical: 1, high: 1, medium: 0, low: -1, info: -1 };

function priorityOf(alert: Alert): number {
  if (isAllClear(alert) || alert.event === 'test') return 0;
  if (alert.event === 'incident.acknowledged') return -1;
  return PRIORITY[alert.severity];
}

/** The HTML message, built so that its whole length, tags included, stays within Pushover's limit. */
function message(alert: Alert): string {
  const monitors = monitorsOf(alert);
  const head = [escapeHtml(truncate(alert.message, 300)), `<i>${EVENT_LABELS[alert.event]} · ${SEVERITY_LABELS[alert.severity]}</i>`];
  if (!isGrouped(alert) && monitors[0])
    head.push(`<b>${escapeHtml(truncate(monitors[0].name, 100))}</b> ${escapeHtml(truncate(monitors[0].target, 150))}`);
  const links = alertLinks(alert)
    .filter((l) => l.label !== 'Open in console' && l.url.length <= 300)
    .map((l) => `<a href="${escapeHtml(l.url)}">${l.label}</a>`)
    .join(' · ');
  if (isGrouped(alert)) {
    const budget = PUSHOVER_MESSAGE_LIMIT - head.join('\n').length - links.length - 40;
    head.push(`<b>${monitors.length} monitors</b>`, ...monitorLines(monitors, budget, (m) => `• ${escapeHtml(truncate(m.name, 80))}`));
  }
  return [...head, links].filter((p) => p !== '').join('\n');
}

export const pushover: HttpChannel<PushoverConfig> = {
  type: 'pushover',
  label: pushoverForm.label,
  transport: 'http',
  secretFields: secretKeys(pushoverForm),
  grouping: 'hold',
  // Pushover limits an application by its monthly message count (429 past it), not per second.
  minGapMs: () => 0,
  parseConfig: (raw) => parseFields<PushoverConfig>(raw, pushoverForm),
  tenantUrls: () => [],
  build(alert, config, env) {
    const base = env.apiBase.pushover.replace(/\/+$/, '');
    const form = new URLSearchParams({
      token: config.api_token,
      user: config.user_key,
      title: truncate(`${alert.title} (${alert.company.name})`, PUSHOVER_TITLE_LIMIT),
      message: message(alert),
      html: '1',
      priority: String(priorityOf(alert)),
      timestamp: String(Math.floor(alert.occurredAt / 1000)),
    });
    // Pushover's supplementary URL (at most 512 characters) opens from the notification itself.
    if (alert.consoleUrl.length <= 512) {
      form.set('url', alert.consoleUrl);
      form.set('url_title', 'Open in console');
    }
    if (config.device) form.set('device', config.device);
    return {
      url: `${base}/1/messages.json`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    };
  },
};
