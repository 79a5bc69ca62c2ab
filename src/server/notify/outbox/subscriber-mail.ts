// The mails a status-page subscriber gets: the confirmation of a subscription and each notice.
// Plain text and HTML, branded with the company's name and colour; every one carries the
// unsubscribe link in its body and as RFC 8058 one-click headers (mail providers show their own
// "Unsubscribe" button and POST `List-Unsubscribe=One-Click` to the link). Pure: links come in.
import type { OutboundMail } from '../channels/channel.ts';
import { SUBSCRIBER_EVENT_TEXT, type SubscriberNotice } from './subscriber-notice.ts';

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

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const STATUS_TEXT: Record<string, string> = {
  open: 'Investigating',
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
  scheduled: 'Scheduled',
  in_progress: 'In progress',
  completed: 'Completed',
};

export function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

function layout(brand: MailBrand, heading: string, bodyHtml: string, links: MailLinks, why: string): string {
  const color = colorOf(brand);
  return `<!doctype html><html><body style="margin:0;font-family:system-ui,sans-serif;color:#111;background:#f8fafc">
<div style="background:${color};padding:14px 18px"><strong style="color:#fff;font-size:17px">${escapeHtml(brand.companyName)} Status</strong></div>
<div style="padding:18px;background:#fff"><h1 style="font-size:19px;margin:0 0 10px">${escapeHtml(heading)}</h1>${bodyHtml}
<p style="margin-top:18px"><a href="${escapeHtml(links.statusPageUrl)}" style="color:${color}">View the status page</a></p></div>
<p style="padding:12px 18px;font-size:12px;color:#555">${escapeHtml(why)} <a href="${escapeHtml(links.unsubscribeUrl)}" style="color:#555">Unsubscribe</a></p>
</body></html>`;
}

export function noticeMail(to: string, n: SubscriberNotice, brand: MailBrand, links: MailLinks): OutboundMail {
  const kind = SUBSCRIBER_EVENT_TEXT[n.event];
  const status = STATUS_TEXT[n.status] ?? n.status;
  const affected = n.components.length ? n.components.map((c) => c.name).join(', ') : 'All services';
  const when = n.maintenance ? `${utc(n.maintenance.startsAt)} – ${utc(n.maintenance.endsAt)}` : utc(n.occurredAt);
  const why = `You receive this because you subscribed to ${brand.companyName} status updates.`;
  const text = [
    `${brand.companyName} status: ${kind}`,
    '',
    n.title,
    `Status: ${status}`,
    `Affected: ${affected}`,
    `${n.maintenance ? 'Window' : 'Time'}: ${when}`,
    ...(n.message ? ['', n.message] : []),
    '',
    `Status page: ${links.statusPageUrl}`,
    '',
    '-- ',
    why,
    `Unsubscribe: ${links.unsubscribeUrl}`,
    '',
  ].join('\n');
  const row = (label: string, value: string) =>
    `<tr><td style="padding:3px 12px 3px 0;color:#555">${escapeHtml(label)}</td><td style="padding:3px 0">${escapeHtml(value)}</td></tr>`;
  const body = `<p style="margin:0 0 8px;font-weight:600">${escapeHtml(n.title)}</p>
<table style="font-size:14px">${row('Status', status)}${row('Affected', affected)}${row(n.maintenance ? 'Window' : 'Time', when)}</table>
${n.message ? `<p style="margin:12px 0 0;white-space:pre-line">${escapeHtml(n.message)}</p>` : ''}`;
  return {
    to: [to],
    subject: `[${brand.companyName}] ${kind}: ${n.title}`,
    text,
    html: layout(brand, kind, body, links, why),
    headers: unsubscribeHeaders(links.unsubscribeUrl),
  };
}

export function confirmationMail(to: string, confirmUrl: string, brand: MailBrand, links: MailLinks, validHours: number): OutboundMail {
  const why = `Someone (we hope you) asked for ${brand.companyName} status updates at this address. If it was not you, ignore this mail: nothing is sent without confirmation.`;
  const text = [
    `Confirm your subscription to ${brand.companyName} status updates`,
    '',
    `Open this link and press "Confirm subscription" (valid for ${validHours} hours):`,
    confirmUrl,
    '',
    why,
    `Unsubscribe: ${links.unsubscribeUrl}`,
    '',
  ].join('\n');
  const body = `<p style="margin:0 0 14px">Press the button on the page this link opens to start receiving incident and maintenance notices (valid for ${validHours} hours).</p>
<p><a href="${escapeHtml(confirmUrl)}" style="display:inline-block;background:${colorOf(brand)};color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none;font-weight:600">Confirm subscription</a></p>
<p style="font-size:12px;color:#555;word-break:break-all">${escapeHtml(confirmUrl)}</p>`;
  return {
    to: [to],
    subject: `[${brand.companyName}] Confirm your status updates subscription`,
    text,
    html: layout(brand, 'Confirm your subscription', body, links, why),
    headers: unsubscribeHeaders(links.unsubscribeUrl),
  };
}
