// E-mail channel: one mail per alert to the channel's addresses, in plain text and HTML branded
// with the company's name, colour and logo. The outbox sends it through SMTP_URL and sets the
// Message-ID from the delivery id, so a retried mail is recognisably the same message.
import { monitorLines } from './alert-text.ts';
import { ChannelConfigError, type Alert, type AlertMonitorRef, type MailChannel } from './channel.ts';
import { emailForm } from '../../../lib/channel-forms/email.ts';

export interface EmailConfig {
  to: string[];
}

const MAX_RECIPIENTS = 20;
// Deliberately plain: one @, no spaces or angle brackets, a dot in the domain.
const ADDRESS = /^[^\s@<>()",;]{1,64}@[^\s@<>()",;]+\.[^\s@<>()",;]+$/;
const DEFAULT_COLOR = '#2563eb';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function colorOf(a: Alert): string {
  return a.company.primaryColor && /^#[0-9a-f]{3,8}$/i.test(a.company.primaryColor) ? a.company.primaryColor : DEFAULT_COLOR;
}

const described = (m: AlertMonitorRef) => (m.target ? `${m.name} (${m.target})` : m.name);

/** A grouped alert's monitors, bounded: 1,000 monitors still make a mail of reasonable size. */
const groupLines = (a: Alert) => monitorLines(a.monitors, 40_000, described);

function textOf(a: Alert): string {
  const lines = [a.title, '', a.message, ''];
  if (a.monitor) lines.push(`Monitor: ${described(a.monitor)}`);
  if (a.monitors.length > 0) lines.push(`${a.monitors.length} monitors:`, ...groupLines(a).map((l) => `- ${l}`), '');
  if (a.incident) lines.push(`Incident: ${a.incident.title} (${a.incident.status})`);
  lines.push(`Time: ${new Date(a.occurredAt).toISOString()}`, '', `Open the console: ${a.consoleUrl}`, `Status page: ${a.statusPageUrl}`);
  if (a.acknowledgeUrl) lines.push(`Acknowledge: ${a.acknowledgeUrl}`);
  return `${lines.join('\n')}\n`;
}

function htmlOf(a: Alert): string {
  const color = colorOf(a);
  const row = (label: string, value: string) =>
    `<tr><td style="padding:4px 12px 4px 0;color:#555">${escapeHtml(label)}</td><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`;
  const rows = [
    a.monitor ? row('Monitor', described(a.monitor)) : '',
    ...groupLines(a).map((line, i) => row(i === 0 ? `${a.monitors.length} monitors` : '', line)),
    a.incident ? row('Incident', `${a.incident.title} (${a.incident.status})`) : '',
    row('Time', new Date(a.occurredAt).toISOString()),
  ].join('');
  const logo = a.company.logoUrl
    ? `<img src="${escapeHtml(a.company.logoUrl)}" alt="${escapeHtml(a.company.name)}" style="max-height:32px;vertical-align:middle">`
    : `<strong style="color:#fff;font-size:16px">${escapeHtml(a.company.name)}</strong>`;
  const ack = a.acknowledgeUrl ? ` &middot; <a href="${escapeHtml(a.acknowledgeUrl)}">Acknowledge</a>` : '';
  return `<!doctype html><html><body style="margin:0;font-family:system-ui,sans-serif;color:#111">
<div style="background:${color};padding:12px 16px">${logo}</div>
<div style="padding:16px"><h1 style="font-size:18px;margin:0 0 8px">${escapeHtml(a.title)}</h1>
<p style="margin:0 0 12px">${escapeHtml(a.message)}</p><table style="font-size:14px">${rows}</table>
<p style="margin-top:16px"><a href="${escapeHtml(a.consoleUrl)}" style="color:${color}">Open the console</a> &middot; <a href="${escapeHtml(a.statusPageUrl)}">Status page</a>${ack}</p></div>
</body></html>`;
}

export const email: MailChannel<EmailConfig> = {
  type: 'email',
  label: emailForm.label,
  transport: 'mail',
  secretFields: [],
  grouping: 'burst',
  // Sent at once (the 2 s promise of one alert); a burst under way follows as one mail. SMTP servers queue.
  minGapMs: () => 0,
  parseConfig(raw) {
    const to = (raw as { to?: unknown } | null)?.to;
    if (!Array.isArray(to) || to.length === 0) throw new ChannelConfigError('to', 'Enter at least one e-mail address');
    if (to.length > MAX_RECIPIENTS) throw new ChannelConfigError('to', `At most ${MAX_RECIPIENTS} addresses`);
    const out = to.map((t) => (typeof t === 'string' ? t.trim().toLowerCase() : ''));
    const bad = out.find((t) => t.length > 254 || !ADDRESS.test(t));
    if (bad !== undefined) throw new ChannelConfigError('to', `Not an e-mail address: ${bad.slice(0, 80) || '(empty)'}`);
    return { to: [...new Set(out)] };
  },
  tenantUrls: () => [],
  build(alert, config, env) {
    return {
      to: config.to,
      subject: `[${alert.company.name}] ${alert.title}`,
      text: `${textOf(alert)}\n-- \n${env.productName}\n`,
      html: htmlOf(alert),
      headers: {},
    };
  },
};
