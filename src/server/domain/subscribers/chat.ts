// Slack, Teams and Discord subscribers: a visitor gives the incoming-webhook URL of a channel.
// The URL must be on the service's own hosts (config.subscriberChatHosts) and pass the SSRF
// guard, so the product never posts for a stranger to an arbitrary address. Confirmation: a
// message with the confirm link is posted to the channel at once (whoever reads the channel
// may confirm; nothing else is posted until then). A refused post is the visitor's answer (a
// mistyped URL shows at once) and leaves no subscriber behind.
import type { Ctx, Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { subscribersRepo, type SubscriberRow } from '../../db/repositories/subscribers-repo.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { literalTarget, TargetRefused } from '../../net/ssrf.ts';
import { ChannelConfigError } from '../../notify/channels/channel.ts';
import { parseTenantUrl } from '../../notify/channels/tenant-url.ts';
import { postToChat } from '../../notify/outbox/subscriber-chat-send.ts';
import { chatConfirmation } from '../../notify/outbox/subscriber-chat.ts';
import { confirmUrl, subscriberLinks } from '../../notify/outbox/subscriber-links.ts';
import { CHAT_SUBSCRIBER_KINDS, type ChatSubscriberKind, onChatHosts } from '../../subscriber-chat-hosts.ts';
import { full, invalid, limited, MAX_SUBSCRIBERS_PER_COMPANY, newRow, refuse } from './subscribe-common.ts';
import { CONFIRM_TTL_MS, newConfirmToken, newNonce } from './tokens.ts';

const HOUR = 3_600_000;

export function isChatKind(kind: unknown): kind is ChatSubscriberKind {
  return (CHAT_SUBSCRIBER_KINDS as readonly unknown[]).includes(kind);
}

/** Each service's name and where its webhook URLs live (the hosts come from configuration). */
export const CHAT_SERVICES: Record<ChatSubscriberKind, { label: string; example: string; path: RegExp }> = {
  slack: { label: 'Slack', example: 'https://hooks.slack.com/services/…', path: /^\/services\/[^/]+\/[^/]+\/[^/]+$/ },
  teams: { label: 'Microsoft Teams', example: 'the Workflows URL of "When a Teams webhook request is received"', path: /^\/.+/ },
  discord: { label: 'Discord', example: 'https://discord.com/api/webhooks/…', path: /^\/api\/webhooks\/\d+\/[\w-]+$/ },
};

/** The subscriber's webhook URL, normalised, or a refusal naming `webhook_url`. */
export function chatWebhookUrl(services: Services, kind: ChatSubscriberKind, raw: unknown): string {
  const service = CHAT_SERVICES[kind];
  const wrong = () => invalid('webhook_url', `Enter a ${service.label} webhook URL (${service.example})`);
  let url: URL;
  try {
    url = new URL(parseTenantUrl(raw, 'webhook_url'));
  } catch (e) {
    if (e instanceof ChannelConfigError) throw wrong();
    throw e;
  }
  if (!onChatHosts(url, services.config.subscriberChatHosts[kind]) || !service.path.test(url.pathname)) throw wrong();
  try {
    literalTarget(url.hostname.replace(/^\[|\]$/g, ''), services.config.allowPrivateTargets);
  } catch (e) {
    if (e instanceof TargetRefused) throw invalid('webhook_url', e.message);
    throw e;
  }
  return url.href;
}

type Company = { id: string; name: string; subdomain: string };

export async function subscribeChat(
  ctx: Ctx,
  company: Company,
  kind: ChatSubscriberKind,
  rawUrl: unknown,
  componentChoice: string | null,
  /** the subscriber's language (service.ts subscriberLocale) */
  locale: string,
): Promise<{ kind: ChatSubscriberKind; status: 'pending' }> {
  const s = ctx.services;
  const url = chatWebhookUrl(s, kind, rawUrl);
  const now = s.now();
  const t = s.state.subscribeThrottles;
  limited(t.ip, ctx.ip, now, 'from your network');
  limited(t.company, company.id, now, 'for this status page');
  // Counted per URL across every company's page: a channel gets at most 3 requests an hour.
  refuse(await t.chatUrl.take(url, now), 'for this channel');
  t.ip.hit(ctx.ip, now);
  const repo = subscribersRepo(s.db);
  const existing = await repo.byWebhook(company.id, kind, url);
  if (existing?.state === 'confirmed') return { kind, status: 'pending' };
  if (!existing && (await repo.liveCount(company.id)) >= MAX_SUBSCRIBERS_PER_COMPANY) throw full();
  const confirm = newConfirmToken();
  const pending = {
    state: 'pending' as const,
    component_ids: componentChoice,
    locale,
    confirm_token_hash: confirm.hash,
    confirm_expires_at: now + CONFIRM_TTL_MS,
    updated_at: now,
  };
  let row: SubscriberRow;
  if (existing) {
    const patch = { ...pending, unsubscribe_nonce: existing.state === 'unsubscribed' ? newNonce() : existing.unsubscribe_nonce };
    await repo.update(existing.id, patch);
    row = { ...existing, ...patch };
  } else {
    t.company.hit(company.id, now);
    row = newRow(company.id, kind, now, { ...pending, webhook_url: url });
    try {
      await repo.insert(row);
    } catch (e) {
      if (isUniqueViolation(e)) return { kind, status: 'pending' };
      throw e;
    }
  }
  const message = chatConfirmation(
    kind,
    company,
    confirmUrl(s.config, company.subdomain, confirm.token),
    subscriberLinks(s.config, company.subdomain, row),
    CONFIRM_TTL_MS / HOUR,
    locale,
  );
  const sent = await postToChat(s, url, message);
  if (sent.error !== null) {
    if (!existing) await repo.delete(row.id);
    else await repo.update(row.id, { state: existing.state, confirm_token_hash: null, confirm_expires_at: null, updated_at: now });
    const why = sent.statusCode ? `it answered HTTP ${sent.statusCode}` : sent.error;
    throw new DomainError(
      'validation',
      `${CHAT_SERVICES[kind].label} did not take the confirmation message (${why}). Check the webhook URL.`,
      {
        fields: { webhook_url: `${CHAT_SERVICES[kind].label} did not take the confirmation message (${why})` },
      },
    );
  }
  return { kind, status: 'pending' };
}
