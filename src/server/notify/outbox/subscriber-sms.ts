// What an SMS subscriber's phone receives, in the subscriber's language (catalogue area
// 'subscriber-chat'). Short on purpose: every 160 characters (70 when a character is outside
// the GSM alphabet, as in Japanese or Arabic) is one more billed segment, so a notice is the
// company, the event, a title cut to fit, the link to the incident page and how to stop.
import { truncate } from '../channels/alert-text.ts';
import { SUBSCRIBER_CHAT_AREA } from '../../../lib/i18n/messages/subscriber-chat/index.ts';
import { eventText } from './subscriber-chat.ts';
import type { SubscriberNotice } from './subscriber-notice.ts';

/** Title characters kept in a notice: with the rest, an English notice stays within 2 segments. */
export const SMS_TITLE_MAX = 80;

export function smsNotice(n: SubscriberNotice, company: { name: string }, detailsUrl: string, locale: string): string {
  const t = SUBSCRIBER_CHAT_AREA.translator(locale);
  return [`${truncate(company.name, 40)}: ${eventText(t, n)}: ${truncate(n.title, SMS_TITLE_MAX)}`, detailsUrl, t.t('sms.stop')].join('\n');
}

export function smsCode(code: string, company: { name: string }, minutes: number, locale: string): string {
  return SUBSCRIBER_CHAT_AREA.translator(locale).t('sms.code', { code, company: truncate(company.name, 40), minutes });
}

export function smsWelcome(company: { name: string }, locale: string): string {
  return SUBSCRIBER_CHAT_AREA.translator(locale).t('sms.welcome', { company: truncate(company.name, 40) });
}

export function smsHelp(productName: string, locale: string): string {
  return SUBSCRIBER_CHAT_AREA.translator(locale).t('sms.help', { product: truncate(productName, 40) });
}
