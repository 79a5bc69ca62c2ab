// Google Chat incoming webhook (https://developers.google.com/workspace/chat/quickstart/webhooks):
// a card (cardsV2) with the `text` that notifications show. Messages about one incident share a
// thread (threadKey, falling back to a new thread). The URL's key and token are the secret.
import {
  alertLinks,
  EVENT_LABELS,
  escapeHtml,
  isGrouped,
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
import { googleChatForm } from '../../../lib/channel-forms/google-chat.ts';
import { parseFields } from './config-fields.ts';

export interface GoogleChatConfig {
  url: string;
}

/** Text without the angle brackets Chat reads as mentions and links (<users/all>). */
function plain(text: string): string {
  return text.replace(/</g, '‹').replace(/>/g, '›');
}

function widgets(alert: Alert): unknown[] {
  const monitors = monitorsOf(alert);
  const colour = TONE_COLOURS[toneOf(alert)];
  const out: unknown[] = [
    { textParagraph: { text: `<font color="${colour}"><b>${EVENT_LABELS[alert.event]}</b></font> · ${SEVERITY_LABELS[alert.severity]}` } },
  ];
  out.push({ textParagraph: { text: escapeHtml(truncate(alert.message, 2000)) } });
  if (isGrouped(alert)) {
    const lines = monitorLines(monitors, 3000, (m) => `• <b>${escapeHtml(m.name)}</b> ${escapeHtml(m.target)}`);
    out.push({ textParagraph: { text: `<b>${monitors.length} monitors</b><br>${lines.join('<br>')}` } });
  } else if (monitors[0]) {
    out.push({
      decoratedText: {
        topLabel: 'Monitor',
        text: escapeHtml(monitors[0].name),
        bottomLabel: truncate(monitors[0].target, 200),
        wrapText: true,
      },
    });
  }
  out.push({ buttonList: { buttons: alertLinks(alert).map((l) => ({ text: l.label, onClick: { openLink: { url: l.url } } })) } });
  return out;
}

export const googleChat: HttpChannel<GoogleChatConfig> = {
  type: 'google-chat',
  label: googleChatForm.label,
  transport: 'http',
  secretFields: secretKeys(googleChatForm),
  grouping: 'hold',
  // Chat webhooks: 1 request per second per space (developers.google.com/workspace/chat/limits).
  minGapMs: () => 1000,
  parseConfig: (raw) => parseFields<GoogleChatConfig>(raw, googleChatForm),
  tenantUrls: (config) => [config.url],
  build(alert, config, env) {
    const message: Record<string, unknown> = {
      text: truncate(plain(`*${alert.title}* (${alert.company.name})`), 4000),
      cardsV2: [
        {
          cardId: 'alert',
          card: {
            header: { title: truncate(alert.title, 200), subtitle: senderLine(alert, env.productName) },
            sections: [{ widgets: widgets(alert) }],
          },
        },
      ],
    };
    const url = new URL(config.url);
    if (alert.incident) {
      message.thread = { threadKey: `incident-${alert.incident.id}` };
      url.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
    }
    return { url: url.href, method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(message) };
  },
};
