// SMS through Twilio's Messages API (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource):
// a form post with HTTP Basic auth (Account SID and auth token). The body is plain text and at
// most 1,600 characters, Twilio's limit for one (concatenated) message.
import { alertLinks, isGrouped, monitorsOf, plainSummary, truncate } from './alert-text.ts';
import type { Alert, HttpChannel } from './channel.ts';
import { configObject, onlyFields, requiredString } from './config-fields.ts';

export interface TwilioSmsConfig {
  account_sid: string;
  auth_token: string;
  /** A Twilio number in E.164, or a Messaging Service SID (MG…) */
  from: string;
  /** The number that receives the alerts, in E.164 */
  to: string;
}

export const SMS_BODY_LIMIT = 1600;

const E164 = /^\+[1-9]\d{1,14}$/;
const E164_EXPECTED = 'a phone number in international format such as +14155550123';

/** Short on purpose: every 160 characters (70 with an emoji or accent) is one more billed segment. */
export function smsBody(alert: Alert): string {
  const monitors = monitorsOf(alert);
  const lines = [plainSummary(alert)];
  if (isGrouped(alert))
    lines.push(
      monitors
        .slice(0, 5)
        .map((m) => m.name)
        .join(', ') + (monitors.length > 5 ? ` +${monitors.length - 5} more` : ''),
    );
  else if (monitors[0]) lines.push(monitors[0].target);
  const ack = alertLinks(alert).find((l) => l.label === 'Acknowledge');
  lines.push(ack ? `Ack: ${ack.url}` : alert.consoleUrl);
  return truncate(lines.join('\n'), SMS_BODY_LIMIT);
}

export const twilioSms: HttpChannel<TwilioSmsConfig> = {
  type: 'sms',
  label: 'SMS (Twilio)',
  transport: 'http',
  secretFields: ['auth_token'],
  parseConfig(raw) {
    const fields = configObject(raw);
    onlyFields(fields, ['account_sid', 'auth_token', 'from', 'to']);
    return {
      account_sid: requiredString(fields, 'account_sid', {
        label: 'Account SID',
        max: 34,
        pattern: /^AC[0-9a-f]{32}$/,
        expected: 'AC followed by 32 hexadecimal digits',
      }),
      auth_token: requiredString(fields, 'auth_token', {
        label: 'Auth token',
        max: 32,
        pattern: /^[0-9a-f]{32}$/,
        expected: '32 hexadecimal digits',
      }),
      from: requiredString(fields, 'from', {
        label: 'From',
        max: 34,
        pattern: /^(\+[1-9]\d{1,14}|MG[0-9a-f]{32})$/,
        expected: `${E164_EXPECTED}, or a Messaging Service SID (MG…)`,
      }),
      to: requiredString(fields, 'to', { label: 'To', max: 16, pattern: E164, expected: E164_EXPECTED }),
    };
  },
  tenantUrls: () => [],
  build(alert, config, env) {
    const base = env.apiBase.twilio.replace(/\/+$/, '');
    const form = new URLSearchParams({ To: config.to, Body: smsBody(alert) });
    form.set(config.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', config.from);
    return {
      url: `${base}/2010-04-01/Accounts/${config.account_sid}/Messages.json`,
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${config.account_sid}:${config.auth_token}`).toString('base64')}`,
      },
      body: form.toString(),
    };
  },
};
