// No alert storms: when many monitors of a company change together, a chat channel gets one
// message listing them instead of one each. Human channels (chat, SMS) hold a new delivery until
// the channel had no new alert of the same event for the grouping window (at most the grouping
// maximum after the first), then the first one waiting carries all of them in one message and
// the others are marked `grouped`, pointing at it. E-mail is sent at once (the 2 s promise of a
// single alert) and holds only when a burst is already under way: the first mail goes alone,
// the rest of the burst follows as one. Machine receivers (webhook, PagerDuty, Opsgenie) need one
// event per incident for their own dedup keys: never held, never merged. A person's own e-mail
// and SMS group the same way, per person and target; subscriber notices never group (one notice
// per incident update). Each channel declares its policy in its own module (`grouping`).
import { alertGroupsRepo, type AlertLane } from '../../db/repositories/alert-groups-repo.ts';
import type { AlertDeliveryRow } from '../../db/repositories/alert-deliveries-repo.ts';
import type { PersonalTarget } from '../../db/schema/alerts.ts';
import type { DbScope } from '../../db/scope.ts';
import { EVENT_LABELS } from '../channels/alert-text.ts';
import type { AlertEventType, AlertMonitorRef, GroupingPolicy } from '../channels/channel.ts';
import { channelOf } from '../channels/index.ts';
import { SEVERITIES } from './alert-event.ts';
import type { AlertPayload } from './payload.ts';

/** A person's own deliveries group like the channel of the same kind. */
export const PERSONAL_GROUPING: Record<PersonalTarget, GroupingPolicy> = { email: 'burst', sms: 'hold', webhook: 'never' };

export interface GroupingWindow {
  /** Quiet time a held message waits for (0: nothing is held) */
  windowMs: number;
  /** A held message goes at the latest this long after the first alert it carries */
  maxMs: number;
}

/** The channel's own policy (channels/<type>.ts `grouping`). */
function groupingOf(type: string, event: string): GroupingPolicy {
  const channel = channelOf(type);
  // Send test checks one channel now: never held, never merged.
  if (event === 'test' || !channel) return 'never';
  return channel.grouping;
}

/** How a delivery may join others of its event: where it goes, the policy there, a key for both. */
export interface Grouping {
  lane: AlertLane;
  policy: 'hold' | 'burst';
  key: string;
}

/**
 * The grouping of a delivery not tried yet through a channel of `channelType` or to a person;
 * null when it goes on its own (machine receivers, Send test, subscriber notices, a retry, an
 * alert about no monitor).
 */
export function groupingFor(d: AlertDeliveryRow, channelType: string | null): Grouping | null {
  if (d.state !== 'pending' || d.attempts !== 0 || !namesMonitor(d.payload)) return null;
  let lane: AlertLane;
  let policy: GroupingPolicy;
  if (d.channel_id !== null) {
    if (channelType === null) return null;
    lane = { channelId: d.channel_id };
    policy = groupingOf(channelType, d.event);
  } else if (d.user_id !== null && d.target !== null && d.subscriber_id === null) {
    lane = { userId: d.user_id, target: d.target };
    policy = d.event === 'test' ? 'never' : PERSONAL_GROUPING[d.target];
  } else return null;
  if (policy === 'never') return null;
  const key = 'channelId' in lane ? `channel\n${lane.channelId}` : `user\n${lane.userId}\n${lane.target}`;
  return { lane, policy, key: `${key}\n${d.event}` };
}

/**
 * Only alerts about monitors merge (the message lists them): two incidents opened by hand, or
 * their escalations, each go on their own rather than one standing for both.
 */
function namesMonitor(payload: string): boolean {
  try {
    const p = JSON.parse(payload) as Partial<AlertPayload>;
    return (p.monitors?.length ?? 0) > 0 || !!p.monitor;
  } catch {
    return false;
  }
}

/**
 * Until when a delivery not tried yet waits before it goes (null: it goes now). Held lanes wait
 * until no alert of the event came for the window, at most the maximum after the first one
 * waiting; e-mail waits so only when another mail of the event was written just before it.
 */
export async function groupWaitUntil(
  db: DbScope,
  d: AlertDeliveryRow,
  g: Grouping,
  now: number,
  w: GroupingWindow,
): Promise<number | null> {
  if (w.windowMs === 0) return null;
  const repo = alertGroupsRepo(db);
  if (g.policy === 'burst' && !(await repo.anyJustBefore(g.lane, d, w.windowMs))) return null;
  const span = await repo.waitingSpan(g.lane, d.event);
  if (!span) return null;
  const until = Math.min(span.last + w.windowMs, span.first + w.maxMs);
  return until > now ? until : null;
}

/**
 * Claims every other delivery of the lane and event still waiting for a first attempt and
 * answers the carrier's payload listing them all (stored, so a retry sends the same message).
 */
export async function takeGroup(db: DbScope, d: AlertDeliveryRow, g: Grouping, holder: string, now: number): Promise<string> {
  const repo = alertGroupsRepo(db);
  const waiting = await repo.waiting(d.id, g.lane, d.event, holder, now);
  const others = await repo.claim(
    d.id,
    waiting.filter((w) => namesMonitor(w.payload)).map((w) => w.id),
    holder,
    now,
  );
  if (others.length === 0) return d.payload;
  const merged = JSON.stringify(mergePayloads([d.payload, ...others].map((p) => JSON.parse(p) as AlertPayload)));
  await repo.setPayload(d.id, holder, merged);
  return merged;
}

const GROUP_VERBS: Partial<Record<AlertEventType, [title: string, message: string]>> = {
  'incident.opened': ['are down', 'went down'],
  'incident.resolved': ['are up again', 'recovered'],
  'incident.degraded': ['are degraded', 'became degraded'],
};

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/**
 * One alert for many: the first payload (the carrier, possibly merged before) with every
 * monitor of all of them, the highest severity, and a title and message that say how many. One
 * monitor in all (the same one changing twice) keeps the first payload as it is.
 */
export function mergePayloads(payloads: AlertPayload[]): AlertPayload {
  const [first] = payloads;
  const byId = new Map<string, AlertMonitorRef>();
  for (const p of payloads)
    for (const m of p.monitors.length > 0 ? p.monitors : p.monitor ? [p.monitor] : []) if (!byId.has(m.id)) byId.set(m.id, m);
  if (byId.size <= 1) return first;
  const monitors = [...byId.values()];
  const severity = SEVERITIES[Math.max(...payloads.map((p) => SEVERITIES.indexOf(p.severity)))];
  const times = payloads.map((p) => p.occurredAt);
  const from = Math.min(...times);
  const to = Math.max(...times);
  const verbs = GROUP_VERBS[first.event];
  const n = monitors.length;
  const between = from === to ? `at ${clock(from)} UTC` : `between ${clock(from)} and ${clock(to)} UTC`;
  return {
    ...first,
    severity,
    title: verbs ? `${n} monitors ${verbs[0]}` : `${EVENT_LABELS[first.event]}: ${n} monitors`,
    message: verbs ? `${n} monitors ${verbs[1]} ${between}.` : `${EVENT_LABELS[first.event]} for ${n} monitors ${between}.`,
    occurredAt: from,
    monitor: null,
    monitors,
    incident: null,
  };
}
