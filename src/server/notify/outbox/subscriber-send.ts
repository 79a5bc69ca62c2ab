// Sends one outbox delivery to a status-page subscriber: a branded mail with one-click
// unsubscribe headers, a Standard Webhooks-signed JSON POST (same guard and limits as the alert
// channels), or a chat message or SMS (subscriber-chat-send.ts). A subscriber who left, a company that is gone, or ENABLE_NOTIFICATIONS off
// (including the operator's override) ends the delivery without sending.
import { Webhook } from 'standardwebhooks';
import type { Services } from '../../domain/context.ts';
import type { AlertDeliveryRow } from '../../db/repositories/alert-deliveries-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { subscribersRepo, type SubscriberRow } from '../../db/repositories/subscribers-repo.ts';
import { subscriberNoticesRepo } from '../../db/repositories/subscriber-notices-repo.ts';
import { dnsResolver } from '../../net/dns-lookup.ts';
import { isPublicLocale, SOURCE_LOCALE } from '../../../lib/i18n/index.ts';
import { USER_AGENT } from '../channels/webhook.ts';
import { sendRichMail } from '../mailer.ts';
import { sendHttp, type SendResult } from './send-http.ts';
import { subscriberLinks } from './subscriber-links.ts';
import { isChatSubscriber, sendToChatOrPhone } from './subscriber-chat-send.ts';
import { noticeMail, type MailLinks } from './subscriber-mail.ts';
import type { SubscriberNotice } from './subscriber-notice.ts';

/**
 * The language a subscriber reads: the one recorded when they subscribed; for those from before
 * languages, the company's default (English until companies can choose one).
 */
export function subscriberLanguage(s: Pick<SubscriberRow, 'locale'>, companyDefault: string = SOURCE_LOCALE): string {
  return s.locale && isPublicLocale(s.locale) ? s.locale : companyDefault;
}

const ended = (error: string) => ({ usable: false, result: { statusCode: null, error, retryAfterMs: null } satisfies SendResult });

export async function notificationsOn(services: Services): Promise<boolean> {
  const override = services.config.flagOverrides.ENABLE_NOTIFICATIONS;
  if (override !== undefined) return override;
  return (await subscriberNoticesRepo(services.db).storedFlag('ENABLE_NOTIFICATIONS')) !== false;
}

/** The Standard Webhooks payload of a notice (documented as SubscriberWebhookPayload in openapi/). */
export function subscriberWebhookPayload(
  deliveryId: string,
  n: SubscriberNotice,
  company: { name: string; subdomain: string },
  links: MailLinks,
  language: string = SOURCE_LOCALE,
) {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    type: `status.${n.event}`,
    timestamp: iso(n.occurredAt),
    data: {
      delivery_id: deliveryId,
      event: n.event,
      title: n.title,
      message: n.message,
      status: n.status,
      occurred_at: iso(n.occurredAt),
      company: { name: company.name, subdomain: company.subdomain },
      components: n.components,
      incident: n.incident,
      maintenance: n.maintenance
        ? { id: n.maintenance.id, starts_at: iso(n.maintenance.startsAt), ends_at: iso(n.maintenance.endsAt) }
        : null,
      status_page_url: links.statusPageUrl,
      unsubscribe_url: links.unsubscribeUrl,
      // Language-neutral: the texts as written, the subscriber's language and the company's
      // versions beside them, for the receiver to choose.
      language,
      ...(n.translations ? { translations: n.translations } : {}),
    },
  };
}

export async function sendToSubscriber(services: Services, d: AlertDeliveryRow): Promise<{ usable: boolean; result: SendResult }> {
  const s: SubscriberRow | undefined = await subscribersRepo(services.db).find(d.subscriber_id!, d.company_id);
  if (s?.state !== 'confirmed') return ended('The subscriber unsubscribed before delivery');
  if (!(await notificationsOn(services))) return ended('Status-page notices are switched off (ENABLE_NOTIFICATIONS)');
  const company = await companiesRepo(services.db).findById(d.company_id);
  if (!company?.subdomain) return ended('The company no longer has a status page');
  const notice = JSON.parse(d.payload) as SubscriberNotice;
  const links = subscriberLinks(services.config, company.subdomain, s);
  const locale = subscriberLanguage(s);
  if (s.kind === 'sms' || isChatSubscriber(s.kind)) return sendToChatOrPhone(services, s, notice, company, links, locale);
  if (s.kind === 'email' && s.email) {
    const brand = { companyName: company.name, primaryColor: company.primary_color ?? null, productName: services.config.productName };
    try {
      await sendRichMail(services, {
        ...noticeMail(s.email, notice, brand, links, locale),
        messageId: `${d.id}@${services.config.productDomain}`,
      });
      return { usable: true, result: { statusCode: null, error: null, retryAfterMs: null } };
    } catch (e) {
      const smtp = e as { responseCode?: number; message?: string };
      if (smtp.message?.startsWith('SMTP is not configured'))
        return { usable: true, result: { statusCode: null, error: smtp.message, retryAfterMs: null } };
      const error = smtp.responseCode
        ? `SMTP ${smtp.responseCode}: the mail server refused the message`
        : 'The mail server could not be reached';
      return { usable: true, result: { statusCode: null, error, retryAfterMs: null } };
    }
  }
  if (!s.webhook_url || !s.secret) return ended('The subscriber has no address');
  const body = JSON.stringify(subscriberWebhookPayload(d.id, notice, { name: company.name, subdomain: company.subdomain }, links, locale));
  const sentAt = new Date();
  const result = await sendHttp(
    {
      url: s.webhook_url,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': d.id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': new Webhook(s.secret).sign(d.id, sentAt, body),
      },
      body,
    },
    {
      allowPrivateTargets: services.config.allowPrivateTargets,
      resolve: services.monitoring?.resolve ?? dnsResolver(services.config.dnsResolvers),
      now: services.now,
    },
  );
  return { usable: true, result };
}
