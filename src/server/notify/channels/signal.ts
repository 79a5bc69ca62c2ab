// Signal through a signal-cli REST API server the company runs
// (https://github.com/bbernhard/signal-cli-rest-api, POST /v2/send): JSON with the message, the
// sending number registered there and the recipients (numbers or group ids). Plain text
// (text_mode "normal"): Signal shows names as they are, so nothing needs escaping.
import { alertLinks, EVENT_LABELS, isGrouped, monitorLines, monitorsOf, SEVERITY_LABELS, truncate } from './alert-text.ts';
import type { Alert, HttpChannel } from './channel.ts';
import { ChannelConfigError } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { signalForm } from '../../../lib/channel-forms/signal.ts';
import { configObject, parseFields } from './config-fields.ts';
import { serverBase } from './incident-key.ts';

export interface SignalConfig {
  server_url: string;
  number: string;
  recipients: string[];
}

const MAX_RECIPIENTS = 20;
const NUMBER = /^\+[1-9]\d{6,14}$/;
// signal-cli-rest-api's group ids: "group." and the base64 of the internal id.
const GROUP = /^group\.[A-Za-z0-9+/=_-]{8,200}$/;

// Signal sends a text over 2,000 characters as a long-text attachment some clients do not show inline.
const TEXT_LIMIT = 2000;

function message(alert: Alert): string {
  const monitors = monitorsOf(alert);
  const lines = [
    truncate(alert.title, 200),
    truncate(alert.message, 500),
    `${EVENT_LABELS[alert.event]} · ${SEVERITY_LABELS[alert.severity]} · ${truncate(alert.company.name, 100)}`,
  ];
  const links = alertLinks(alert).map((l) => `${l.label}: ${l.url}`);
  if (isGrouped(alert)) {
    const budget = TEXT_LIMIT - lines.join('\n').length - links.join('\n').length - 40;
    lines.push('', `${monitors.length} monitors:`, ...monitorLines(monitors, budget, (m) => `- ${truncate(m.name, 80)}`));
  } else if (monitors[0]) lines.push(`Monitor: ${truncate(`${monitors[0].name} (${monitors[0].target})`, 300)}`);
  return truncate([...lines, '', ...links].join('\n'), TEXT_LIMIT);
}

function recipientsOf(raw: unknown): string[] {
  if (raw === undefined || raw === null) throw new ChannelConfigError('recipients', 'Recipients is required.');
  const list = typeof raw === 'string' ? raw.split(/[\n,]/) : raw;
  if (!Array.isArray(list)) throw new ChannelConfigError('recipients', 'Recipients must be a list of phone numbers or group IDs.');
  const out = list.map((r) => (typeof r === 'string' ? r.trim() : r)).filter((r) => r !== '');
  if (out.length === 0) throw new ChannelConfigError('recipients', 'Recipients is required.');
  if (out.length > MAX_RECIPIENTS) throw new ChannelConfigError('recipients', `At most ${MAX_RECIPIENTS} recipients.`);
  for (const r of out) {
    if (typeof r !== 'string' || !(NUMBER.test(r) || GROUP.test(r)))
      throw new ChannelConfigError(
        'recipients',
        `"${String(r).slice(0, 60)}" is neither a phone number such as +4917012345678 nor a group ID such as group.abc…=.`,
      );
  }
  return [...new Set(out as string[])];
}

export const signal: HttpChannel<SignalConfig> = {
  type: 'signal',
  label: signalForm.label,
  transport: 'http',
  secretFields: secretKeys(signalForm),
  grouping: 'hold',
  // Signal's servers throttle a sender that posts fast (rate-limit challenges); one a second stays clear.
  minGapMs: () => 1000,
  parseConfig(raw) {
    const fields = configObject(raw);
    const { recipients, ...rest } = fields;
    const form = { ...signalForm, fields: signalForm.fields.filter((f) => f.key !== 'recipients') };
    const parsed = parseFields<Omit<SignalConfig, 'recipients'>>(rest, form);
    return { ...parsed, recipients: recipientsOf(recipients) };
  },
  tenantUrls: (config) => [config.server_url],
  build(alert, config) {
    return {
      url: `${serverBase(config.server_url)}/v2/send`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: message(alert), number: config.number, recipients: config.recipients, text_mode: 'normal' }),
    };
  },
};
