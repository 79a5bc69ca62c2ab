// Sends a status notice to a Slack, Teams or Discord subscriber's channel, or texts it to an SMS
// subscriber through the operator's Twilio account: the same outbox, receipts and retries as
// e-mail subscribers (a 429's Retry-After holds the retry back: deliver.ts). A webhook the
// service says is gone (deleted, revoked, archived) and a number that opted out end the
// subscription; the receipt says why.
import type { Services } from '../../domain/context.ts';
import { smsOptOutsRepo } from '../../db/repositories/sms-opt-outs-repo.ts';
import { subscribersRepo, type SubscriberRow } from '../../db/repositories/subscribers-repo.ts';
import { dnsResolver } from '../../net/dns-lookup.ts';
import { CHAT_SUBSCRIBER_KINDS, type ChatSubscriberKind, onChatHosts } from '../../subscriber-chat-hosts.ts';
import { twilioMessage } from '../channels/twilio-sms.ts';
import { USER_AGENT } from '../channels/webhook.ts';
import { sendHttp, type SendResult } from './send-http.ts';
import { CHAT_FORMATS, chatNotice } from './subscriber-chat.ts';
import type { MailLinks } from './subscriber-mail.ts';
import type { SubscriberNotice } from './subscriber-notice.ts';
import { smsNotice } from './subscriber-sms.ts';

const CHAT_LABELS: Record<ChatSubscriberKind, string> = { slack: 'Slack', teams: 'Microsoft Teams', discord: 'Discord' };
/** Twilio's "Attempt to send to unsubscribed recipient": the number texted STOP to our number. */
const TWILIO_OPTED_OUT = 21610;

export const isChatSubscriber = (kind: string): kind is ChatSubscriberKind => (CHAT_SUBSCRIBER_KINDS as readonly string[]).includes(kind);

const outcome = (usable: boolean, statusCode: number | null, error: string | null): { usable: boolean; result: SendResult } => ({
  usable,
  result: { statusCode, error, retryAfterMs: null },
});

/** Posts one JSON body to a subscriber's webhook through the SSRF guard, keeping the answer (is it gone?). */
export function postToChat(services: Services, url: string, body: unknown): Promise<SendResult> {
  return sendHttp(
    { url, method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT }, body: JSON.stringify(body) },
    {
      allowPrivateTargets: services.config.allowPrivateTargets,
      resolve: services.monitoring?.resolve ?? dnsResolver(services.config.dnsResolvers),
      now: services.now,
      keepAnswer: true,
    },
  );
}

/** Texts one message from the operator's Twilio number (TWILIO_*; the API host TWILIO_API_URL). */
export function textTo(services: Services, to: string, body: string): Promise<SendResult> {
  const account = services.config.personalSms;
  if (!account)
    return Promise.resolve({
      statusCode: null,
      error: 'SMS is not set up (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM)',
      retryAfterMs: null,
    });
  return sendHttp(twilioMessage(services.config.channelApis.twilio, account, to, body), {
    allowPrivateTargets: services.config.allowPrivateTargets,
    resolve: services.monitoring?.resolve ?? dnsResolver(services.config.dnsResolvers),
    now: services.now,
    keepAnswer: true,
  });
}

async function endSubscription(services: Services, s: SubscriberRow): Promise<void> {
  await subscribersRepo(services.db).update(s.id, {
    state: 'unsubscribed',
    confirm_token_hash: null,
    confirm_expires_at: null,
    updated_at: services.now(),
  });
}

/** The link a notice points to: the incident's public page, else the status page. */
export function detailsUrl(notice: SubscriberNotice, links: MailLinks): string {
  return notice.incident
    ? `${links.statusPageUrl.replace(/\/$/, '')}/incidents/${encodeURIComponent(notice.incident.id)}`
    : links.statusPageUrl;
}

export async function sendToChatOrPhone(
  services: Services,
  s: SubscriberRow,
  notice: SubscriberNotice,
  company: { name: string },
  links: MailLinks,
  /** the subscriber's language (subscriber-send.ts subscriberLanguage) */
  locale: string,
): Promise<{ usable: boolean; result: SendResult }> {
  const details = detailsUrl(notice, links);
  if (s.kind === 'sms') {
    if (!s.phone) return outcome(false, null, 'The subscriber has no number');
    if (await smsOptOutsRepo(services.db).optedOut(s.phone)) {
      await endSubscription(services, s);
      return outcome(false, null, 'The number replied STOP; the subscriber was removed');
    }
    const sent = await textTo(services, s.phone, smsNotice(notice, company, details, locale));
    if (sent.statusCode && sent.statusCode >= 400 && new RegExp(`"code"\\s*:\\s*${TWILIO_OPTED_OUT}\\b`).test(sent.answer ?? '')) {
      await endSubscription(services, s);
      return outcome(false, sent.statusCode, `Twilio error ${TWILIO_OPTED_OUT}: the number opted out; the subscriber was removed`);
    }
    return { usable: true, result: { statusCode: sent.statusCode, error: sent.error, retryAfterMs: sent.retryAfterMs } };
  }
  if (!isChatSubscriber(s.kind) || !s.webhook_url) return outcome(false, null, 'The subscriber has no address');
  const kind = s.kind;
  // The operator may have narrowed the service's hosts since the visitor subscribed.
  if (!onChatHosts(new URL(s.webhook_url), services.config.subscriberChatHosts[kind]))
    return outcome(false, null, `The webhook URL is not on ${CHAT_LABELS[kind]}'s hosts any more`);
  const sent = await postToChat(services, s.webhook_url, chatNotice(kind, notice, company, { ...links, detailsUrl: details }, locale));
  if (sent.statusCode && sent.error !== null && CHAT_FORMATS[kind].gone(sent.statusCode, sent.answer ?? '')) {
    await endSubscription(services, s);
    return outcome(
      false,
      sent.statusCode,
      `HTTP ${sent.statusCode}: the ${CHAT_LABELS[kind]} webhook no longer exists; the subscriber was removed`,
    );
  }
  return { usable: true, result: { statusCode: sent.statusCode, error: sent.error, retryAfterMs: sent.retryAfterMs } };
}
