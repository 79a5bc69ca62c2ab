// The outbox's send side, run by the alert-delivery job: lease due deliveries, send each through
// its channel, record the attempt, then mark it delivered, schedule a retry (exponential backoff
// with jitter, never sooner than the receiver's Retry-After) or, past its retry window, mark it
// failed and tell the company's admins with a `system` notification. Before a send, the
// delivery may wait for its grouping window (a channel's, or a person's own e-mail or SMS:
// grouping.ts) or its channel's rate limit (rate-limit.ts).
import { channelEnv } from '../channel-env.ts';
import { randomUUID } from 'node:crypto';
import type { Services } from '../../domain/context.ts';
import { publicMainOrigin, publicTenantOrigin } from '../../domain/status-page/public-links.ts';
import { alertChannelsRepo, type AlertChannelRow } from '../../db/repositories/alert-channels-repo.ts';
import { alertDeliveriesRepo, type AlertDeliveryRow } from '../../db/repositories/alert-deliveries-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { dnsResolver } from '../../net/dns-lookup.ts';
import { channelOf } from '../channels/index.ts';
import type { Alert } from '../channels/channel.ts';
import { sendRichMail } from '../mailer.ts';
import { notifyIn } from '../notify.ts';
import { acknowledgeUrlOf } from './ack-url.ts';
import type { AlertPayload } from './payload.ts';
import { personalSetupGap, sendPersonal } from './personal-send.ts';
import { groupingFor, groupWaitUntil, takeGroup } from './grouping.ts';
import { holdChannelUntil, minGapMs, takeSendSlot } from './rate-limit.ts';
import { sendHttp, type SendResult } from './send-http.ts';
import { sendToSubscriber } from './subscriber-send.ts';
import { sendTracker } from './tracker-send.ts';
import { sendScheduledReport } from './report-send.ts';

/** A delivery's lease outlasts one send (10 s deadline) with room to record it. */
export const DELIVERY_LEASE_MS = 60_000;
/** Deliveries leased per run; a full batch means more are due */
export const DELIVERY_BATCH = 50;
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

/** Sends the deliveries due now; answers how many were leased. */
export async function runDeliveries(services: Services, opts: DeliveryOptions): Promise<number> {
  const now = services.now();
  const leased = await alertDeliveriesRepo(services.db).lease(opts.holder, now, now + DELIVERY_LEASE_MS, DELIVERY_BATCH);
  // An UPDATE … RETURNING answers in no set order: in the order they were written, so each lane's
  // first carries its group and a subscriber's notices go out as they happened.
  leased.sort((a, b) => Number(a.created_at) - Number(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const channels = new Map<string, AlertChannelRow | undefined>();
  for (const id of new Set(leased.map((d) => d.channel_id))) if (id) channels.set(id, await alertChannelsRepo(services.db).find(id, null));
  const channelOfRow = (d: AlertDeliveryRow) => (d.channel_id ? channels.get(d.channel_id) : undefined);
  // Of a lane's deliveries of one event that may be merged (a channel's, or one person's e-mails
  // or SMS), the first carries the others; subscriber notices and machine receivers go one each.
  const carriers = new Map<string, { carrier: AlertDeliveryRow; mates: AlertDeliveryRow[] }>();
  for (const d of leased) {
    const key = groupingFor(d, channelOfRow(d)?.type ?? null)?.key ?? d.id;
    const group = carriers.get(key);
    if (group) group.mates.push(d);
    else carriers.set(key, { carrier: d, mates: [] });
  }
  // A subscriber reads notices in the order they were written ("New incident" before
  // "Resolved"): one subscriber's notices go one after another, everything else at once.
  const lines = new Map<string, Array<{ carrier: AlertDeliveryRow; mates: AlertDeliveryRow[] }>>();
  for (const [key, group] of carriers) {
    const line = group.carrier.subscriber_id ? `subscriber:${group.carrier.subscriber_id}` : key;
    lines.set(line, [...(lines.get(line) ?? []), group]);
  }
  const busy = new Map<string, number>();
  const repo = alertDeliveriesRepo(services.db);
  await Promise.all(
    [...lines.values()].map(async (line) => {
      for (const { carrier, mates } of line) {
        const waitUntil = await deliverOne(services, carrier, channelOfRow(carrier), opts, busy);
        // Mates the carrier did not take along wait with it (or go back in line at once).
        for (const m of mates) await repo.finish(m.id, opts.holder, { next_attempt_at: waitUntil ?? m.next_attempt_at });
      }
    }),
  );
  return leased.length;
}

/** Sends one delivery, or answers until when it waits (grouping window, rate limit). */
async function deliverOne(
  services: Services,
  d: AlertDeliveryRow,
  channel: AlertChannelRow | undefined,
  opts: DeliveryOptions,
  busy: Map<string, number>,
): Promise<number | null> {
  // A personal delivery without the operator's SMTP or Twilio set up fails at once, saying so.
  const personalGap = d.subscriber_id === null && d.user_id ? personalSetupGap(services.config, d.target) : null;
  // Send test also tries a disabled channel (checking it before switching it on).
  const channelUsable = !!channel && (channel.enabled || d.event === 'test');
  let payload = d.payload;
  if (d.subscriber_id === null && (d.user_id ? personalGap === null : channelUsable)) {
    const ready = await readyToSend(services, d, channel, opts.holder, busy);
    if (typeof ready === 'number') {
      await alertDeliveriesRepo(services.db).finish(d.id, opts.holder, { next_attempt_at: ready });
      return ready;
    }
    payload = ready.payload;
  }
  let usable: boolean;
  let result: SendResult;
  const started = performance.now();
  if (d.subscriber_id !== null) {
    ({ usable, result } = await sendToSubscriber(services, d).catch(() => ({ usable: true, result: unsendable() })));
  } else if (d.report_schedule_id) {
    ({ usable, result } = await sendScheduledReport(services, d).catch(() => ({
      usable: true,
      result: { statusCode: null, error: 'The report could not be built', retryAfterMs: null },
    })));
  } else if (d.user_id) {
    usable = personalGap === null;
    result = personalGap
      ? { statusCode: null, error: personalGap, retryAfterMs: null }
      : await alertOf(services, d, payload)
          .then((a) => sendPersonal(services, d, a))
          .catch(unsendable);
  } else {
    usable = channelUsable;
    result = usable && channel ? await send(services, d, payload, channel, opts).catch(unsendable) : disabled();
  }
  const latencyMs = Math.round(performance.now() - started);
  const now = services.now();
  if (channel && usable) await afterSend(services, channel, result, now);
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
  return null;
}

/**
 * Grouping first (a held message may wait on, else it takes its group along), then a channel's
 * rate limit: answers the payload to send now, or until when to wait. Of several deliveries of
 * one channel refused a slot in this run, each waits one gap longer than the one before. A
 * personal delivery (no channel) groups per person and target and has no rate limit.
 */
async function readyToSend(
  services: Services,
  d: AlertDeliveryRow,
  channel: AlertChannelRow | undefined,
  holder: string,
  busy: Map<string, number>,
): Promise<number | { payload: string }> {
  const now = services.now();
  const grouping = groupingFor(d, channel?.type ?? null);
  if (grouping) {
    const wait = await groupWaitUntil(services.db, d, grouping, now, services.config.alertGrouping);
    if (wait !== null) return wait;
  }
  if (channel) {
    const gap = minGapMs(channel, parsedConfig(channel));
    const slot = await takeSendSlot(services.db, channel, gap, now);
    if (slot !== null) {
      const queued = busy.get(channel.id) ?? 0;
      busy.set(channel.id, queued + 1);
      return slot + queued * gap;
    }
  }
  return { payload: grouping ? await takeGroup(services.db, d, grouping, holder, now) : d.payload };
}

/**
 * The next slot of a rate-limited channel opens a full gap after this send ended (the service
 * counts arrivals, and this send may have taken a while to arrive); a Retry-After holds it longer.
 */
async function afterSend(services: Services, channel: AlertChannelRow, result: SendResult, now: number): Promise<void> {
  const gap = minGapMs(channel, parsedConfig(channel));
  const until = Math.max(gap > 0 ? now + gap : 0, result.retryAfterMs ? now + result.retryAfterMs : 0);
  if (until > 0) await holdChannelUntil(services.db, channel.id, until);
}

function parsedConfig(channel: AlertChannelRow): Record<string, unknown> {
  try {
    return JSON.parse(channel.config) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** A channel whose stored config no longer parses, or a build that throws: product text, no details. */
const unsendable = (): SendResult => ({ statusCode: null, error: 'The channel configuration is not valid', retryAfterMs: null });

const disabled = (): SendResult => ({ statusCode: null, error: 'The channel was disabled or deleted before delivery', retryAfterMs: null });

async function send(
  services: Services,
  d: AlertDeliveryRow,
  payload: string,
  row: AlertChannelRow,
  opts: DeliveryOptions,
): Promise<SendResult> {
  const channel = channelOf(row.type);
  if (!channel) return { statusCode: null, error: `Unknown channel type ${row.type}`, retryAfterMs: null };
  const alert = await alertOf(services, d, payload);
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
  const http = {
    allowPrivateTargets: services.config.allowPrivateTargets,
    resolve: services.monitoring?.resolve ?? dnsResolver(services.config.dnsResolvers),
    now: services.now,
  };
  if (channel.transport === 'tracker') return sendTracker(services, d, alert, row, channel, config, env, http);
  return sendHttp(channel.build(alert, config, env), http);
}

/** The stored payload with what is added at send time: delivery id, company, links. */
async function alertOf(services: Services, d: AlertDeliveryRow, payload: string): Promise<Alert | null> {
  const company = await companiesRepo(services.db).findById(d.company_id);
  if (!company) return null;
  const c = services.config;
  const sub = company.subdomain ?? '';
  // Links carry the public port like every public link (PUBLIC_PORT; PORT outside production).
  const origin = sub ? publicTenantOrigin(c, sub) : publicMainOrigin(c);
  const p = JSON.parse(payload) as AlertPayload;
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
    consoleUrl: `${origin}${p.incident ? `/monitors/incidents/${p.incident.id}` : '/dashboard'}`,
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
