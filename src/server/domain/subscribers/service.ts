// Status-page subscriptions. A visitor subscribes an e-mail address (double opt-in: nothing is
// sent but the confirmation until its link is used; the link expires after 24 h) or registers a
// webhook (confirmed at once: the registrant receives its signing secret in the answer, and every
// send re-checks the URL with the SSRF guard). The answer never says whether an address was
// already subscribed. Throttled per e-mail address across every company's page (counted in the
// database, so every process and every status page shares one count), per client IP and per
// company; everything answers 404 while ENABLE_NOTIFICATIONS is off.
import { randomBytes } from 'node:crypto';
import type { Ctx, Services } from '../context.ts';
import type { Db } from '../../db/connect.ts';
import { DomainError, notFound } from '../errors.ts';
import { toIso, toIsoOrNull } from '../ids.ts';
import { companyScope, requirePermission } from '../authz.ts';
import { flagOn } from '../flags/flags.ts';
import { SharedWindow, SlidingWindow } from '../auth/throttle.ts';
import { lookupStatusPage } from '../status-page/service.ts';
import { subscribersRepo, type SubscriberRow } from '../../db/repositories/subscribers-repo.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { literalTarget, TargetRefused } from '../../net/ssrf.ts';
import { ChannelConfigError } from '../../notify/channels/channel.ts';
import { parseTenantUrl } from '../../notify/channels/tenant-url.ts';
import { logMailFailure, sendMail, sendRichMail } from '../../notify/mailer.ts';
import { confirmUrl, subscriberLinks } from '../../notify/outbox/subscriber-links.ts';
import { confirmationMail } from '../../notify/outbox/subscriber-mail.ts';
import { isEmail } from '../../../lib/formats.ts';
import { isPublicLocale, negotiateLocale, PUBLIC_LOCALES, SOURCE_LOCALE } from '../../../lib/i18n/index.ts';
import { CONFIRM_TTL_MS, newConfirmToken, newNonce } from './tokens.ts';
import { full, invalid, limited, MAX_SUBSCRIBERS_PER_COMPANY, newRow, refuse } from './subscribe-common.ts';
import { isChatKind, subscribeChat } from './chat.ts';
import { confirmSmsCode, subscribeSms } from './sms.ts';
import type { ChatSubscriberKind } from '../../subscriber-chat-hosts.ts';
import type { SubscriberKind, SubscriberState } from '../../db/schema/public.ts';

const HOUR = 3_600_000;
/** Confirmation mails one address may be sent per hour (whoever asks, from any status page) */
export const MAILS_PER_ADDRESS_PER_HOUR = 3;
/** Subscribe requests one client IP may make per hour (any address, any company) */
export const REQUESTS_PER_IP_PER_HOUR = 20;
/** New subscriptions per company per hour (a farm of addresses cannot fill a company's list fast) */
export const NEW_PER_COMPANY_PER_HOUR = 500;

export { MAX_SUBSCRIBERS_PER_COMPANY };

export const NOT_AVAILABLE = 'Status-page subscriptions are not available.';
/** SMS codes one number may be texted per hour (each costs the operator; a number is not a target to flood) */
export const CODES_PER_PHONE_PER_HOUR = 3;
/** SMS code guesses one client IP may make per hour, over every number */
export const CODE_GUESSES_PER_IP_PER_HOUR = 30;

export interface SubscribeThrottles {
  address: SharedWindow;
  ip: SlidingWindow;
  company: SlidingWindow;
  /** Confirmation messages one chat webhook URL may be sent per hour (chat.ts) */
  chatUrl: SharedWindow;
  /** Codes one phone number may be texted per hour, whoever asks (sms.ts) */
  phone: SharedWindow;
  /** Code guesses one client IP may make per hour (sms.ts) */
  codeIp: SlidingWindow;
}
export function newSubscribeThrottles(db: Db): SubscribeThrottles {
  return {
    address: new SharedWindow(db, 'subscribe-address', MAILS_PER_ADDRESS_PER_HOUR, HOUR),
    ip: new SlidingWindow(REQUESTS_PER_IP_PER_HOUR, HOUR),
    company: new SlidingWindow(NEW_PER_COMPANY_PER_HOUR, HOUR),
    chatUrl: new SharedWindow(db, 'subscribe-chat-url', MAILS_PER_ADDRESS_PER_HOUR, HOUR),
    phone: new SharedWindow(db, 'subscribe-phone', CODES_PER_PHONE_PER_HOUR, HOUR),
    codeIp: new SlidingWindow(CODE_GUESSES_PER_IP_PER_HOUR, HOUR),
  };
}

declare module '../context.ts' {
  interface ProcessState {
    /** Subscription requests per address, network and status page (this file) */
    subscribeThrottles: SubscribeThrottles;
  }
}

export interface SubscribeInput {
  /** Absent: e-mail or webhook, as the field given says */
  kind?: SubscriberKind;
  email?: string;
  webhook_url?: string;
  /** SMS subscribers: the mobile number with its country code */
  phone?: string;
  /** Public monitor ids of the page; null or absent: every component */
  component_ids?: string[] | null;
  /** The page's language when they subscribed (PUBLIC_LOCALES); absent: the browser's Accept-Language */
  language?: string;
}

export type SubscribeAnswer =
  | { kind: 'email'; status: 'pending' }
  | { kind: 'webhook'; status: 'confirmed'; id: string; secret: string; unsubscribe_url: string }
  | { kind: ChatSubscriberKind | 'sms'; status: 'pending' };

/** The company of a public page, or 404 (also while the feature is off). */
export async function pageOf(services: Services, subdomain: string) {
  if (!(await flagOn(services, 'ENABLE_NOTIFICATIONS'))) throw new DomainError('not_found', NOT_AVAILABLE);
  let found;
  try {
    found = await lookupStatusPage(services, subdomain);
  } catch (e) {
    throw new DomainError('unavailable', 'Failed to load status page', { cause: e });
  }
  if (found.kind !== 'ok') throw notFound('Status page');
  return found.view;
}

/**
 * The language of a subscriber's mails: the page's language they subscribed from, else the best
 * match of their browser's languages, else English (issue 32). Every page offers every
 * PUBLIC_LOCALES language until a company can narrow them.
 */
export function subscriberLocale(language: string | undefined, acceptLanguage: string | null | undefined): string {
  if (language !== undefined) {
    if (!isPublicLocale(language)) throw invalid('language', `Choose one of the page's languages: ${PUBLIC_LOCALES.join(', ')}`);
    return language;
  }
  return negotiateLocale({ acceptLanguage, offered: PUBLIC_LOCALES, fallback: SOURCE_LOCALE });
}

export async function subscribe(
  ctx: Ctx,
  subdomain: string,
  input: SubscribeInput,
  acceptLanguage?: string | null,
): Promise<SubscribeAnswer> {
  const s = ctx.services;
  const view = await pageOf(s, subdomain);
  const locale = subscriberLocale(input.language, acceptLanguage);
  const publicIds = new Set(view.monitors.map((m) => m.id));
  const components = input.component_ids ?? null;
  if (components) {
    if (components.length === 0) throw invalid('component_ids', 'Choose at least one component, or null for all');
    if (components.some((id) => !publicIds.has(id))) throw invalid('component_ids', 'Unknown component');
  }
  const componentChoice = components ? JSON.stringify([...new Set(components)]) : null;
  if (isChatKind(input.kind)) return subscribeChat(ctx, view.company, input.kind, input.webhook_url, componentChoice, locale);
  if (input.kind === 'sms') return subscribeSms(ctx, view.company, input.phone, componentChoice, locale);
  const email = input.email?.trim().toLowerCase();
  const webhookUrl = input.webhook_url?.trim();
  if (!email === !webhookUrl) throw invalid('email', 'Enter an e-mail address (or, for a webhook, only its webhook_url)');
  if (input.kind && input.kind !== (email ? 'email' : 'webhook'))
    throw invalid('kind', input.kind === 'email' ? 'Enter an e-mail address' : 'Enter the webhook_url');
  if (email !== undefined && (email.length > 254 || !isEmail(email) || /[<>()",;\s]/.test(email)))
    throw invalid('email', 'Enter a valid e-mail address');
  let url: string | undefined;
  if (webhookUrl !== undefined) {
    try {
      url = parseTenantUrl(webhookUrl, 'webhook_url');
      literalTarget(new URL(url).hostname.replace(/^\[|\]$/g, ''), s.config.allowPrivateTargets);
    } catch (e) {
      if (e instanceof ChannelConfigError || e instanceof TargetRefused) throw invalid('webhook_url', e.message);
      throw e;
    }
  }
  const now = s.now();
  const t = s.state.subscribeThrottles;
  const companyId = view.company.id;
  limited(t.ip, ctx.ip, now, 'from your network');
  limited(t.company, companyId, now, 'for this status page');
  // Every request counts against the address, subscribed or not (the limit says nothing about
  // it), and on every company's page alike: one inbox gets at most 3 confirmations an hour.
  if (email) refuse(await t.address.take(email, now), 'for this address');
  t.ip.hit(ctx.ip, now);
  const repo = subscribersRepo(s.db);
  const componentJson = componentChoice;

  if (url) {
    if ((await repo.liveCount(companyId)) >= MAX_SUBSCRIBERS_PER_COMPANY) throw full();
    t.company.hit(companyId, now);
    const row = newRow(companyId, 'webhook', now, {
      webhook_url: url,
      secret: `whsec_${randomBytes(32).toString('base64')}`,
      component_ids: componentJson,
      locale,
    });
    row.state = 'confirmed';
    row.confirmed_at = now;
    await repo.insert(row);
    const links = subscriberLinks(s.config, view.company.subdomain, row);
    return { kind: 'webhook', status: 'confirmed', id: row.id, secret: row.secret!, unsubscribe_url: links.unsubscribeUrl };
  }

  const existing = await repo.byEmail(companyId, email!);
  if (existing?.state === 'confirmed') return { kind: 'email', status: 'pending' };
  if (!existing && (await repo.liveCount(companyId)) >= MAX_SUBSCRIBERS_PER_COMPANY) throw full();
  const confirm = newConfirmToken();
  let row: SubscriberRow;
  if (existing) {
    // Pending: a fresh link (the old one stops working). Unsubscribed: starts over, old links void.
    const patch = {
      state: 'pending' as const,
      component_ids: componentJson,
      locale,
      confirm_token_hash: confirm.hash,
      confirm_expires_at: now + CONFIRM_TTL_MS,
      unsubscribe_nonce: existing.state === 'unsubscribed' ? newNonce() : existing.unsubscribe_nonce,
      updated_at: now,
    };
    await repo.update(existing.id, patch);
    row = { ...existing, ...patch };
  } else {
    t.company.hit(companyId, now);
    row = newRow(companyId, 'email', now, {
      email: email!,
      component_ids: componentJson,
      locale,
      confirm_token_hash: confirm.hash,
      confirm_expires_at: now + CONFIRM_TTL_MS,
    });
    try {
      await repo.insert(row);
    } catch (e) {
      // The same address asked on this page at the same moment: that request sends the mail.
      if (isUniqueViolation(e)) return { kind: 'email', status: 'pending' };
      throw e;
    }
  }
  // Sent after answering: the answer's timing must not tell a new address from a known one.
  void sendConfirmation(s, view.company, row, confirm.token).catch((e) => logMailFailure(s, 'subscription confirmation', row.email!, e));
  return { kind: 'email', status: 'pending' };
}

async function sendConfirmation(
  s: Services,
  company: { id: string; name: string; subdomain: string; primaryColor: string },
  row: SubscriberRow,
  token: string,
): Promise<void> {
  const links = subscriberLinks(s.config, company.subdomain, row);
  const url = confirmUrl(s.config, company.subdomain, token);
  const brand = { companyName: company.name, primaryColor: company.primaryColor, productName: s.config.productName };
  const mail = confirmationMail(row.email!, url, brand, links, CONFIRM_TTL_MS / HOUR, row.locale ?? SOURCE_LOCALE);
  if (!s.config.smtpUrl) {
    // Without SMTP the operator's log holds the link (as for password resets).
    await sendMail(s, { to: row.email!, subject: mail.subject, text: mail.text, kind: 'subscription confirmation', link: url });
    return;
  }
  await sendRichMail(s, { ...mail, messageId: `sub-${row.id}-${s.now()}@${s.config.productDomain}` });
}

/** The code an SMS subscriber was texted, typed on the page (sms.ts). */
export async function confirmSmsSubscription(ctx: Ctx, subdomain: string, input: { phone: string; code: string }) {
  const view = await pageOf(ctx.services, subdomain);
  return confirmSmsCode(ctx, view.company, input);
}

// ---- Admin views ----

export function presentSubscriber(row: SubscriberRow) {
  return {
    id: row.id,
    company_id: row.company_id,
    kind: row.kind,
    email: row.email,
    phone: row.phone,
    // The URL's host only: the path of a webhook URL often holds the receiver's own secret.
    webhook_host: row.webhook_url ? new URL(row.webhook_url).host : null,
    component_ids: row.component_ids ? (JSON.parse(row.component_ids) as string[]) : null,
    state: row.state,
    locale: row.locale,
    created_at: toIso(row.created_at),
    confirmed_at: toIsoOrNull(row.confirmed_at),
  };
}

export async function listSubscribers(
  ctx: Ctx,
  q: { tenant?: string; state?: SubscriberState; kind?: SubscriberKind; limit?: number; offset?: number },
) {
  requirePermission(ctx, 'view', 'settings', 'view subscribers');
  const scope = companyScope(ctx, q.tenant);
  const repo = subscribersRepo(ctx.services.db);
  const [rows, counts] = await Promise.all([
    repo.list(scope, { state: q.state, kind: q.kind, limit: q.limit ?? 100, offset: q.offset ?? 0 }),
    repo.counts(scope),
  ]);
  return { subscribers: rows.map(presentSubscriber), counts, enabled: await flagOn(ctx.services, 'ENABLE_NOTIFICATIONS') };
}

/** Removes a subscriber and its pending deliveries (super admins: the role table gives delete to them alone). */
export async function deleteSubscriber(ctx: Ctx, id: string): Promise<void> {
  requirePermission(ctx, 'delete', 'settings', 'remove subscribers');
  const repo = subscribersRepo(ctx.services.db);
  const row = await repo.find(id, companyScope(ctx, null));
  if (!row) throw notFound('Subscriber');
  await repo.delete(row.id);
}
