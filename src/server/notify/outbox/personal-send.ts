// Sends a personal delivery (outbox/personal.ts writes them): an e-mail through SMTP_URL to the
// user's address, an SMS through the operator's Twilio account (TWILIO_*, the API host
// TWILIO_API_URL like the Twilio channel) to the user's phone, or a Standard Webhooks signed
// POST to the user's own URL (the SSRF guard checks it before every send, like a channel's);
// each as it is at send time.
import type { Config } from '../../config.ts';
import type { Services } from '../../domain/context.ts';
import type { AlertDeliveryRow } from '../../db/repositories/alert-deliveries-repo.ts';
import { personalContactsRepo } from '../../db/repositories/personal-contacts-repo.ts';
import type { PersonalTarget } from '../../db/schema/alerts.ts';
import { dnsResolver } from '../../net/dns-lookup.ts';
import { channelEnv } from '../channel-env.ts';
import type { Alert } from '../channels/channel.ts';
import { email } from '../channels/email.ts';
import { twilioSms } from '../channels/twilio-sms.ts';
import { webhook } from '../channels/webhook.ts';
import { sendRichMail } from '../mailer.ts';
import { sendHttp, type SendResult } from './send-http.ts';

/** Why a personal delivery to `target` cannot be sent on this installation; null when it can. */
export function personalSetupGap(config: Pick<Config, 'smtpUrl' | 'personalSms'>, target: PersonalTarget | null): string | null {
  if (target === 'webhook') return null;
  if (target === 'sms')
    return config.personalSms
      ? null
      : 'Personal SMS is not set up (the operator sets TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM)';
  return config.smtpUrl ? null : 'E-mail is not set up (the operator sets SMTP_URL)';
}

const failed = (error: string): SendResult => ({ statusCode: null, error, retryAfterMs: null });

/** Sends a personal delivery to the user's address or phone as they are now. */
export async function sendPersonal(services: Services, d: AlertDeliveryRow, alert: Alert | null): Promise<SendResult> {
  const contact = d.user_id ? await personalContactsRepo(services.db).contact(d.user_id) : undefined;
  if (!contact || !alert) return failed('The user was removed or deactivated before delivery');
  const env = channelEnv(services.config);
  if (d.target === 'sms') {
    const account = services.config.personalSms;
    if (!account) return failed(personalSetupGap(services.config, 'sms')!);
    if (!contact.phone) return failed('The user has no phone number any more');
    return sendHttp(twilioSms.build(alert, { ...account, to: contact.phone }, env), {
      // The operator's own API host (TWILIO_API_URL), not a tenant's URL: like the Twilio channel.
      allowPrivateTargets: services.config.allowPrivateTargets,
      resolve: services.monitoring?.resolve ?? dnsResolver(services.config.dnsResolvers),
      now: services.now,
    });
  }
  if (d.target === 'webhook') {
    if (!contact.webhook_url || !contact.webhook_secret) return failed('The user removed their webhook');
    return sendHttp(webhook.build(alert, { url: contact.webhook_url, secret: contact.webhook_secret }, env), {
      allowPrivateTargets: services.config.allowPrivateTargets,
      resolve: services.monitoring?.resolve ?? dnsResolver(services.config.dnsResolvers),
      now: services.now,
    });
  }
  try {
    const mail = email.build(alert, { to: [contact.email] }, env);
    await sendRichMail(services, { ...mail, messageId: `${d.id}@${services.config.productDomain}` });
    return { statusCode: null, error: null, retryAfterMs: null };
  } catch (e) {
    const smtp = e as { responseCode?: number; message?: string };
    return failed(
      smtp.responseCode ? `SMTP ${smtp.responseCode}: the mail server refused the message` : 'The mail server could not be reached',
    );
  }
}
