// The outbox's send side, run by the alert-delivery job: lease due deliveries, send each through
// its channel, record the attempt, then mark it delivered, schedule a retry (exponential backoff
// with jitter, never sooner than the receiver's Retry-After) or, past its retry window, mark it
// failed and tell the company's admins with a `system` notification.
import { channelEnv } from '../channel-env.ts';
import { randomUUID } from 'node:crypto';
import type { Services } from '../../domain/context.ts';
import { publicMainOrigin, publicTenantOrigin } from '../../domain/status-page/public-links.ts';
import { alertChannelsRepo, type AlertChannelRow } from '../../db/repositories/alert-channels-repo.ts';
import { alertDeliveriesRepo, type AlertDeliveryRow } from '../../db/repositories/alert-deliveries-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { dnsResolver } from '../../engine/dns-lookup.ts';
import { channelOf } from '../channels/index.ts';
import type { Alert, ChannelEnv } from '../channels/channel.ts';
import { sendRichMail } from '../mailer.ts';
import { notifyIn } from '../notify.ts';
import { acknowledgeUrlOf } from './ack-url.ts';
import type { AlertPayload } from './payload.ts';
import { personalSetupGap, sendPersonal } from './personal-send.ts';
import { sendHttp, type SendResult } from './send-http.ts';
import { sendToSubscriber } from './subscriber-send.ts';

/** A delivery's lease outlasts one send (10 s deadline) with room to record it. */
export const DELIVERY_LEASE_MS = 60_000;
const BATCH = 50;
const FIRST_RETRY_MS = 10_000;
const MAX_BACKOFF_MS = 60 * 60 * 1000;

export interface DeliveryOptions {
  holder: string;
  /** Jitter source in [0, 1); tests fix it */
  random?: () => number;
}

/** Delay before attempt n+1 after n failed attempts: 10 s doubling to 1 h, ±20 % jitter. */
export function backoffMs(attempts: number, random: () => number): number {
  const base = Math.min(MAX_BACKOFF_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** Sends the deliveries due now; answers how many were attempted. */
export async function runDeliveries(services: Services, opts: DeliveryOptions): Promise<number> {
  const now = services.now();
  const leased = await alertDeliveriesRepo(services.db).lease(opts.holder, now, now + DELIVERY_LEASE_MS, BATCH);
  await Promise.all(leased.map((d) => deliverOne(services, d, opts)));
  return leased.length;
}

async function deliverOne(services: Services, d: AlertDeliveryRow, opts: DeliveryOptions): Promise<void> {
  const channel = d.channel_id ? await alertChannelsRepo(services.db).find(d.channel_id, d.company_id) : undefined;
  const started = performance.now();
  let usable: boolean;
  let result: SendResult;
  if (d.subscriber_id !== null) {
    ({ usable, result } = await sendToSubscriber(services, d).catch(() => ({ usable: true, result: unsendable() })));
  } else if (d.user_id) {
    // A personal delivery without the operator's SMTP or Twilio set up fails at once, saying so.
    const personalGap = personalSetupGap(services.config, d.target);
    usable = personalGap === null;
    result = personalGap
      ? { statusCode: null, error: personalGap, retryAfterMs: null }
      : await alertOf(services, d)
          .then((a) => sendPersonal(services, d, a))
          .catch(unsendable);
  } else {
    // Send test also tries a disabled channel (checking it before switching it on).
    usable = !!channel && (channel.enabled === 1 || d.event === 'test');
    result = usable ? await send(services, d, channel!, opts).catch(unsendable) : disabled();
  }
  const latencyMs = Math.round(performance.now() - started);
  const now = services.now();
  await withTransaction(services.db, async (tx) => {
    const repo = alertDeliveriesRepo(tx);
    const attempts = d.attempts + 1;
    let patch: Parameters<typeof repo.finish>[2];
    if (result.error === null) {
      patch = { state: 'delivered', attempts, last_error: null, updated_at: now };
    } else {
      const wait = Math.max(backoffMs(attempts, opts.random ?? Math.random), result.retryAfterMs ?? 0);
      const gaveUp = !usable || now + wait > d.retry_until;
      patch = {
        state: gaveUp ? 'failed' : 'retrying',
        attempts,
        next_attempt_at: now + wait,
        last_error: result.error.slice(0, 500),
        updated_at: now,
      };
      if (gaveUp && channel) await reportFailure(tx, d, channel, result.error, now);
    }
    // Lost the lease (this process stalled past it): another sender owns the delivery now.
    // Lost the lease (this process stalled past it): another sender owns the delivery now, and
    // the receiver dedupes the repeat by its id.
    if (!(await repo.finish(d.id, opts.holder, patch))) return;
    await repo.addAttempt({
      id: randomUUID(),
      delivery_id: d.id,
      at: now,
      status_code: result.statusCode,
      latency_ms: latencyMs,
      error: result.error?.slice(0, 500) ?? null,
    });
  });
}

/** A channel whose stored config no longer parses, or a build that throws: product text, no details. */
const unsendable = (): SendResult => ({ statusCode: null, error: 'The channel configuration is not valid', retryAfterMs: null });

const disabled = (): SendResult => ({ statusCode: null, error: 'The channel was disabled or deleted before delivery', retryAfterMs: null });

async function send(services: Services, d: AlertDeliveryRow, row: AlertChannelRow, opts: DeliveryOptions): Promise<SendResult> {
  const channel = channelOf(row.type);
  if (!channel) return { statusCode: null, error: `Unknown channel type ${row.type}`, retryAfterMs: null };
  const alert = await alertOf(services, d);
  if (!alert) return disabled();
  const env = channelEnv(services.config);
  const config = { ...channel.parseConfig(JSON.parse(row.config)), secret: row.secret ?? undefined };
  if (channel.transport === 'mail') {
    try {
      const mail = channel.build(alert, config, env);
      await sendRichMail(services, { ...mail, messageId: `${d.id}@${services.config.productDomain}` });
      return { statusCode: null, error: null, retryAfterMs: null };
    } catch (e) {
      const smtp = e as { responseCode?: number; message?: string };
      const text = smtp.responseCode
        ? `SMTP ${smtp.responseCode}: the mail server refused the message`
        : 'The mail server could not be reached';
      return { statusCode: null, error: smtp.message?.startsWith('SMTP is not configured') ? smtp.message : text, retryAfterMs: null };
    }
  }
  return sendHttp(channel.build(alert, config, env), {
    allowPrivateTargets: services.config.allowPrivateTargets,
    resolve: services.monitoring?.resolve ?? dnsResolver(services.config.dnsResolvers),
    now: services.now,
  });
}

/** The stored payload with what is added at send time: delivery id, company, links. */
async function alertOf(services: Services, d: AlertDeliveryRow): Promise<Alert | null> {
  const company = await companiesRepo(services.db).findById(d.company_id);
  if (!company) return null;
  const c = services.config;
  const sub = company.subdomain ?? '';
  // Links carry the public port like every public link (PUBLIC_PORT; PORT outside production).
  const origin = sub ? publicTenantOrigin(c, sub) : publicMainOrigin(c);
  const p = JSON.parse(d.payload) as AlertPayload;
  return {
    ...p,
    deliveryId: d.id,
    company: {
      id: company.id,
      name: company.name,
      subdomain: sub,
      primaryColor: company.primary_color ?? null,
      logoUrl: null,
    },
    consoleUrl: `${origin}${p.incident ? `/monitors?incident=${p.incident.id}` : '/dashboard'}`,
    statusPageUrl: `${origin}/`,
    acknowledgeUrl: acknowledgeUrlOf(c.sessionSecret, d, p, sub ? origin : null),
  };
}

async function reportFailure(k: Parameters<typeof notifyIn>[0], d: AlertDeliveryRow, channel: AlertChannelRow, error: string, now: number) {
  await notifyIn(k, now)(d.company_id, {
    type: 'system',
    severity: 'high',
    title: `Alert channel "${channel.name}" failed`,
    audience: 'admins',
    message: `An alert (${d.event}) could not be delivered through "${channel.name}" after ${d.attempts + 1} attempts: ${error}`,
    details: error,
    metadata: { channel_id: channel.id, delivery_id: d.id, event: d.event },
    actionUrl: `/notifications/deliveries?channel_id=${channel.id}`,
    dedupeKey: `delivery:${d.id}:failed`,
  });
}
