// What a Slack, Teams or Discord subscriber's channel receives: a status notice (or the
// confirmation that asks the channel to confirm), in the subscriber's language (catalogue area
// 'subscriber-chat'), in each service's documented format, using the alert channels' markup
// helpers. Every notice carries the unsubscribe link: anyone who reads the channel may stop it.
// Pure: the links and the language come in; nothing is sent here.
import { escapeMarkdown, TONE_COLOURS, type Tone, truncate } from '../channels/alert-text.ts';
import { mrkdwn } from '../channels/slack.ts';
import type { ChatSubscriberKind } from '../../subscriber-chat-hosts.ts';
import { SUBSCRIBER_CHAT_AREA, type SubscriberChatKey } from '../../../lib/i18n/messages/subscriber-chat/index.ts';
import type { Translator } from '../../../lib/i18n/index.ts';
import type { SubscriberNotice } from './subscriber-notice.ts';

export interface ChatLinks {
  statusPageUrl: string;
  unsubscribeUrl: string;
  /** The incident's public page, else the status page */
  detailsUrl: string;
}

/** One message as text blocks, before a service's markup. */
interface ChatMessage {
  title: string;
  lines: string[];
  tone: Tone;
  links: Array<{ label: string; url: string }>;
  footer: string;
}

export interface ChatFormat {
  /** The JSON body posted to the subscriber's webhook URL */
  body(m: ChatMessage): unknown;
  /**
   * Whether the service's refusal says the webhook is gone for good (deleted, revoked, archived):
   * the subscriber is then removed instead of retried.
   */
  gone(status: number, answer: string): boolean;
}

const CARD_COLOURS: Record<Tone, string> = { danger: 'Attention', warning: 'Warning', good: 'Good', accent: 'Accent', neutral: 'Default' };

export const CHAT_FORMATS: Record<ChatSubscriberKind, ChatFormat> = {
  // https://api.slack.com/messaging/webhooks: `text` is the notification's fallback, `blocks` the message.
  slack: {
    body: (m) => ({
      text: truncate(mrkdwn(m.title), 3000),
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: truncate(m.title, 150), emoji: false } },
        ...(m.lines.length ? [{ type: 'section', text: { type: 'mrkdwn', text: truncate(mrkdwn(m.lines.join('\n')), 3000) } }] : []),
        {
          type: 'section',
          text: { type: 'mrkdwn', text: m.links.map((l) => `<${mrkdwn(l.url)}|${mrkdwn(l.label)}>`).join('  ·  ') },
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(mrkdwn(m.footer), 3000) }] },
      ],
    }),
    // Slack answers a removed or revoked webhook with 404 no_service / 403 invalid_token, and an
    // archived channel with 410 channel_is_archived (api.slack.com/messaging/webhooks#handling_errors).
    gone: (status, answer) => status === 404 || status === 410 || /^(no_service|invalid_token|channel_not_found)\b/.test(answer.trim()),
  },
  // A Workflows webhook takes a message envelope whose attachment is an Adaptive Card (1.4).
  teams: {
    body: (m) => ({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: truncate(m.title, 500), weight: 'Bolder', size: 'Large', wrap: true, color: CARD_COLOURS[m.tone] },
              ...m.lines.map((l) => ({ type: 'TextBlock', text: truncate(l, 4000), wrap: true })),
              { type: 'TextBlock', text: truncate(m.footer, 500), isSubtle: true, size: 'Small', wrap: true },
            ],
            actions: m.links.map((l) => ({ type: 'Action.OpenUrl', title: l.label, url: l.url })),
          },
        },
      ],
    }),
    gone: (status) => status === 404 || status === 410,
  },
  // https://discord.com/developers/docs/resources/webhook#execute-webhook; mentions off, so a
  // title holding "@everyone" pings nobody.
  discord: {
    body: (m) => ({
      content: truncate(escapeMarkdown(m.title), 2000),
      embeds: [
        {
          title: truncate(m.title, 256),
          description: truncate(
            [...m.lines.map((l) => escapeMarkdown(l)), m.links.map((l) => `[${escapeMarkdown(l.label)}](${l.url})`).join(' · ')].join(
              '\n\n',
            ),
            4096,
          ),
          url: m.links[0]?.url,
          color: Number.parseInt(TONE_COLOURS[m.tone].slice(1), 16),
          footer: { text: truncate(m.footer, 2048) },
        },
      ],
      allowed_mentions: { parse: [] },
    }),
    // A deleted webhook answers 404 with Discord's error code 10015 ("Unknown Webhook").
    gone: (status, answer) => status === 404 || status === 410 || /"code"\s*:\s*10015\b/.test(answer),
  },
};

const tr = (locale: string): Translator<SubscriberChatKey> => SUBSCRIBER_CHAT_AREA.translator(locale);

/** Dates in a message: the subscriber's language, in UTC (the message says so). */
function when(ms: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(ms);
}

export function eventText(t: Translator<SubscriberChatKey>, n: SubscriberNotice): string {
  return t.t(`event.${n.event}` as SubscriberChatKey);
}

export function statusText(t: Translator<SubscriberChatKey>, status: string): string {
  const key = `status.${status}` as SubscriberChatKey;
  const text = t.t(key);
  return text === key ? status : text;
}

function toneOf(n: SubscriberNotice): Tone {
  if (n.event === 'incident.resolved' || n.event === 'maintenance.ended') return 'good';
  if (n.event.startsWith('maintenance.')) return 'accent';
  return n.incident?.impact === 'minor' ? 'warning' : 'danger';
}

/** A status notice, in `locale`. */
export function chatNotice(
  kind: ChatSubscriberKind,
  n: SubscriberNotice,
  company: { name: string },
  links: ChatLinks,
  locale: string,
): unknown {
  const t = tr(locale);
  const lines = [`${statusText(t, n.status)}: ${n.message}`.trim()];
  if (!n.message) lines[0] = statusText(t, n.status);
  if (n.maintenance)
    lines.push(t.t('notice.window', { start: when(n.maintenance.startsAt, locale), end: when(n.maintenance.endsAt, locale) }));
  lines.push(
    n.components.length > 0 ? t.t('notice.affects', { components: n.components.map((c) => c.name).join(', ') }) : t.t('notice.affectsAll'),
  );
  return CHAT_FORMATS[kind].body({
    title: `${company.name}: ${eventText(t, n)}: ${n.title}`,
    lines,
    tone: toneOf(n),
    links: [
      { label: t.t('link.details'), url: links.detailsUrl },
      { label: t.t('link.unsubscribe'), url: links.unsubscribeUrl },
    ],
    footer: t.t('notice.sender', { company: company.name }),
  });
}

/** The message that asks the channel to confirm (nothing else is posted until someone does). */
export function chatConfirmation(
  kind: ChatSubscriberKind,
  company: { name: string },
  confirmUrl: string,
  links: { statusPageUrl: string },
  validHours: number,
  locale: string,
): unknown {
  const t = tr(locale);
  return CHAT_FORMATS[kind].body({
    title: t.t('confirm.title', { company: company.name }),
    lines: [t.t('confirm.body', { company: company.name, hours: validHours })],
    tone: 'accent',
    links: [
      { label: t.t('confirm.button'), url: confirmUrl },
      { label: t.t('link.statusPage'), url: links.statusPageUrl },
    ],
    footer: t.t('notice.sender', { company: company.name }),
  });
}
