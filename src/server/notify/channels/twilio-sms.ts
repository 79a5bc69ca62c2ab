// SMS through Twilio's Messages API (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource):
// a form post with HTTP Basic auth (Account SID and auth token). The body is plain text and at
// most 1,600 characters, Twilio's limit for one (concatenated) message.
import { alertLinks, isGrouped, monitorsOf, plainSummary, truncate } from './alert-text.ts';
import type { Alert, HttpChannel, OutboundRequest } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { smsForm } from '../../../lib/channel-forms/sms.ts';
import { parseFields } from './config-fields.ts';

export interface TwilioSmsConfig {
  account_sid: string;
  auth_token: string;
  /** A Twilio number in E.164, or a Messaging Service SID (MG…) */
  from: string;
  /** The number that receives the alerts, in E.164 */
  to: string;
}

export const SMS_BODY_LIMIT = 1600;

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

/** Twilio's Create a Message request: one text from an account's number (or Messaging Service) to `to`. */
export function twilioMessage(
  apiBase: string,
  account: Pick<TwilioSmsConfig, 'account_sid' | 'auth_token' | 'from'>,
  to: string,
  body: string,
): OutboundRequest {
  const form = new URLSearchParams({ To: to, Body: body });
  form.set(account.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', account.from);
  return {
    url: `${apiBase.replace(/\/+$/, '')}/2010-04-01/Accounts/${account.account_sid}/Messages.json`,
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${account.account_sid}:${account.auth_token}`).toString('base64')}`,
    },
    body: form.toString(),
  };
}

export const twilioSms: HttpChannel<TwilioSmsConfig> = {
  type: 'sms',
  label: smsForm.label,
  transport: 'http',
  secretFields: secretKeys(smsForm),
  grouping: 'hold',
  // A Twilio long code sends 1 message segment a second.
  minGapMs: () => 1000,
  parseConfig: (raw) => parseFields<TwilioSmsConfig>(raw, smsForm),
  tenantUrls: () => [],
  build(alert, config, env) {
    return twilioMessage(env.apiBase.twilio, config, config.to, smsBody(alert));
  },
};
