// Matrix client-server API (https://spec.matrix.org/v1.11/client-server-api/#put_matrixclientv3roomsroomidsendeventtypetxnid):
// PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId} with the posting account's
// access token as a Bearer token. The transaction id is the delivery's id, so a retry after a
// lost answer is the same event to the homeserver, never a second message. Each message has a
// plain `body` and an HTML `formatted_body` (org.matrix.custom.html) with every name escaped.
// It is an m.text, not an m.notice: the default push rules mute notices, and an alert must ring.
import { alertLinks, EVENT_LABELS, escapeHtml, isGrouped, monitorLines, monitorsOf, SEVERITY_LABELS, truncate } from './alert-text.ts';
import type { Alert, HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { matrixForm } from '../../../lib/channel-forms/matrix.ts';
import { parseFields } from './config-fields.ts';
import { serverBase } from './incident-key.ts';

export interface MatrixConfig {
  homeserver_url: string;
  access_token: string;
  room_id: string;
}

// An event is at most 65,536 bytes as JSON: the monitor list of each body keeps well under it.
const LIST_BUDGET = 12_000;

function bodies(alert: Alert): { body: string; html: string } {
  const monitors = monitorsOf(alert);
  const title = truncate(alert.title, 300);
  const text = truncate(alert.message, 2000);
  const meta = `${EVENT_LABELS[alert.event]} · ${SEVERITY_LABELS[alert.severity]} · ${truncate(alert.company.name, 200)}`;
  const plain = [title, text, meta];
  const html = [`<p><strong>${escapeHtml(title)}</strong></p>`, `<p>${escapeHtml(text)}</p>`, `<p><em>${escapeHtml(meta)}</em></p>`];
  if (isGrouped(alert)) {
    const lines = monitorLines(monitors, LIST_BUDGET, (m) => truncate(`${m.name} ${m.target}`, 200));
    plain.push(`${monitors.length} monitors:`, ...lines.map((l) => `- ${l}`));
    html.push(`<p><strong>${monitors.length} monitors</strong></p>`, `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`);
  } else if (monitors[0]) {
    const name = truncate(monitors[0].name, 200);
    const target = truncate(monitors[0].target, 300);
    plain.push(`Monitor: ${name} (${target})`);
    html.push(`<p>Monitor: <strong>${escapeHtml(name)}</strong> <code>${escapeHtml(target)}</code></p>`);
  }
  const links = alertLinks(alert);
  plain.push(links.map((l) => `${l.label}: ${l.url}`).join('\n'));
  html.push(`<p>${links.map((l) => `<a href="${escapeHtml(l.url)}">${l.label}</a>`).join(' · ')}</p>`);
  return { body: plain.join('\n'), html: html.join('') };
}

export const matrix: HttpChannel<MatrixConfig> = {
  type: 'matrix',
  label: matrixForm.label,
  transport: 'http',
  secretFields: secretKeys(matrixForm),
  grouping: 'hold',
  // Synapse's default message rate limit: a burst of 10, then one every 5 s (rc_message 0.2/s).
  minGapMs: () => 5000,
  parseConfig: (raw) => parseFields<MatrixConfig>(raw, matrixForm),
  tenantUrls: (config) => [config.homeserver_url],
  build(alert, config) {
    const { body, html } = bodies(alert);
    const room = encodeURIComponent(config.room_id);
    const txn = encodeURIComponent(alert.deliveryId);
    return {
      url: `${serverBase(config.homeserver_url)}/_matrix/client/v3/rooms/${room}/send/m.room.message/${txn}`,
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${config.access_token}` },
      body: JSON.stringify({ msgtype: 'm.text', body, format: 'org.matrix.custom.html', formatted_body: html }),
    };
  },
};
