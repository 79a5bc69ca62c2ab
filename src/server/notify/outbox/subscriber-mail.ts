// The mails a status-page subscriber gets: the confirmation of a subscription and each notice.
// Plain text and HTML, branded with the company's name and colour; every one carries the
// unsubscribe link in its body and as RFC 8058 one-click headers (mail providers show their own
// "Unsubscribe" button and POST `List-Unsubscribe=One-Click` to the link). Written in the
// subscriber's language (issue 32): our words from the 'subscriber-mail' catalogue, the company's
// own words in its translation for that language when it wrote one (else as written), dates in
// that language's style (always UTC, and saying so: a mail has no reader's time zone), and the
// HTML part laid out right to left for Arabic and Hebrew. Pure: links come in.
import { directionOf, PSEUDO_LOCALE, SOURCE_LOCALE } from '../../../lib/i18n/index.ts';
import { textIn } from '../../../lib/i18n/company-text.ts';
import { SUBSCRIBER_MAIL_AREA, type SubscriberMailKey } from '../../../lib/i18n/messages/subscriber-mail/index.ts';
import type { Translator } from '../../../lib/i18n/translator.ts';
import type { OutboundMail } from '../channels/channel.ts';
import type { SubscriberNotice } from './subscriber-notice.ts';

export interface MailBrand {
  companyName: string;
  /** #rrggbb or null */
  primaryColor: string | null;
  productName: string;
}

export interface MailLinks {
  statusPageUrl: string;
  unsubscribeUrl: string;
}

const DEFAULT_COLOR = '#1d4ed8';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const colorOf = (b: MailBrand) => (b.primaryColor && /^#[0-9a-f]{6}$/i.test(b.primaryColor) ? b.primaryColor : DEFAULT_COLOR);

type T = Translator<SubscriberMailKey>;

/** A moment in the reader's language, in UTC with the zone named ('24.11.2026, 09:30 UTC'). */
export function mailTime(tr: T, ms: number): string {
  // The pseudo-locale is English underneath; Intl knows no en-XA.
  const locale = tr.locale === PSEUDO_LOCALE ? SOURCE_LOCALE : tr.locale;
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(ms);
  return tr.t('mail.utc', { time });
}

const STATUS_KEYS: Record<string, SubscriberMailKey> = {
  open: 'status.investigating',
  investigating: 'status.investigating',
  identified: 'status.identified',
  monitoring: 'status.monitoring',
  resolved: 'status.resolved',
  scheduled: 'status.scheduled',
  in_progress: 'status.in_progress',
  completed: 'status.completed',
};

export function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

function layout(tr: T, brand: MailBrand, heading: string, bodyHtml: string, links: MailLinks, why: string): string {
  const color = colorOf(brand);
  const dir = directionOf(tr.locale);
  return `<!doctype html><html lang="${escapeHtml(tr.locale)}" dir="${dir}"><body dir="${dir}" style="margin:0;font-family:system-ui,sans-serif;color:#111;background:#f8fafc;direction:${dir};text-align:${dir === 'rtl' ? 'right' : 'left'}">
<div style="background:${color};padding:14px 18px"><strong style="color:#fff;font-size:17px">${escapeHtml(tr.t('mail.header', { company: brand.companyName }))}</strong></div>
<div style="padding:18px;background:#fff"><h1 style="font-size:19px;margin:0 0 10px">${escapeHtml(heading)}</h1>${bodyHtml}
<p style="margin-top:18px"><a href="${escapeHtml(links.statusPageUrl)}" style="color:${color}">${escapeHtml(tr.t('mail.viewStatusPage'))}</a></p></div>
<p style="padding:12px 18px;font-size:12px;color:#555">${escapeHtml(why)} <a href="${escapeHtml(links.unsubscribeUrl)}" style="color:#555">${escapeHtml(tr.t('mail.unsubscribe'))}</a></p>
</body></html>`;
}

/** The notice's company texts in `locale`: the company's translation, else its text as written. */
export function noticeIn(n: SubscriberNotice, locale: string): SubscriberNotice {
  const tr = n.translations;
  if (!tr) return n;
  return {
    ...n,
    title: textIn(locale, n.title, tr.title),
    message: textIn(locale, n.message, tr.message),
    components: n.components.map((c) => ({ ...c, name: textIn(locale, c.name, tr.components?.[c.id]) })),
  };
}

/** A notice mail in the subscriber's `locale` (a PUBLIC_LOCALES code; others read English). */
export function noticeMail(to: string, notice: SubscriberNotice, brand: MailBrand, links: MailLinks, locale = SOURCE_LOCALE): OutboundMail {
  const tr = SUBSCRIBER_MAIL_AREA.translator(locale);
  const n = noticeIn(notice, tr.locale);
  const company = brand.companyName;
  const kind = tr.t(`event.${n.event}` as SubscriberMailKey);
  const statusKey = STATUS_KEYS[n.status];
  const status = statusKey ? tr.t(statusKey) : n.status;
  const affected = n.components.length ? n.components.map((c) => c.name).join(', ') : tr.t('notice.allServices');
  const when = n.maintenance
    ? tr.t('mail.range', { start: mailTime(tr, n.maintenance.startsAt), end: mailTime(tr, n.maintenance.endsAt) })
    : mailTime(tr, n.occurredAt);
  const whenLabel = tr.t(n.maintenance ? 'notice.window' : 'notice.time');
  const why = tr.t('notice.why', { company });
  const line = (label: string, value: string) => tr.t('mail.labelValue', { label, value });
  const text = [
    tr.t('notice.intro', { company, event: kind }),
    '',
    n.title,
    line(tr.t('notice.status'), status),
    line(tr.t('notice.affected'), affected),
    line(whenLabel, when),
    ...(n.message ? ['', n.message] : []),
    '',
    line(tr.t('mail.statusPage'), links.statusPageUrl),
    '',
    '-- ',
    why,
    line(tr.t('mail.unsubscribe'), links.unsubscribeUrl),
    '',
  ].join('\n');
  const gap = directionOf(tr.locale) === 'rtl' ? '3px 0 3px 12px' : '3px 12px 3px 0';
  const row = (label: string, value: string) =>
    `<tr><td style="padding:${gap};color:#555">${escapeHtml(label)}</td><td style="padding:3px 0">${escapeHtml(value)}</td></tr>`;
  const body = `<p style="margin:0 0 8px;font-weight:600">${escapeHtml(n.title)}</p>
<table style="font-size:14px">${row(tr.t('notice.status'), status)}${row(tr.t('notice.affected'), affected)}${row(whenLabel, when)}</table>
${n.message ? `<p style="margin:12px 0 0;white-space:pre-line">${escapeHtml(n.message)}</p>` : ''}`;
  return {
    to: [to],
    subject: tr.t('notice.subject', { company, event: kind, title: n.title }),
    text,
    html: layout(tr, brand, kind, body, links, why),
    headers: unsubscribeHeaders(links.unsubscribeUrl),
  };
}

export function confirmationMail(
  to: string,
  confirmUrl: string,
  brand: MailBrand,
  links: MailLinks,
  validHours: number,
  locale = SOURCE_LOCALE,
): OutboundMail {
  const tr = SUBSCRIBER_MAIL_AREA.translator(locale);
  const company = brand.companyName;
  const why = tr.t('confirm.why', { company });
  const text = [
    tr.t('confirm.intro', { company }),
    '',
    tr.t('confirm.openLink', { hours: validHours }),
    confirmUrl,
    '',
    why,
    tr.t('mail.labelValue', { label: tr.t('mail.unsubscribe'), value: links.unsubscribeUrl }),
    '',
  ].join('\n');
  const body = `<p style="margin:0 0 14px">${escapeHtml(tr.t('confirm.body', { hours: validHours }))}</p>
<p><a href="${escapeHtml(confirmUrl)}" style="display:inline-block;background:${colorOf(brand)};color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(tr.t('confirm.button'))}</a></p>
<p dir="ltr" style="font-size:12px;color:#555;word-break:break-all">${escapeHtml(confirmUrl)}</p>`;
  return {
    to: [to],
    subject: tr.t('confirm.subject', { company }),
    text,
    html: layout(tr, brand, tr.t('confirm.heading'), body, links, why),
    headers: unsubscribeHeaders(links.unsubscribeUrl),
  };
}
