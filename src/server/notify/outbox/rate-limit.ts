// Per-channel rate limits: the least time between two messages of one channel, from what each
// service documents, kept on the channel row (next_send_at) so every process sending for it
// honours one limit. A delivery that finds its channel busy waits for the next free slot rather
// than being refused by the service; a 429's Retry-After pushes the whole channel back.
import type { AlertChannelRow } from '../../db/repositories/alert-channels-repo.ts';
import { alertSlotsRepo } from '../../db/repositories/alert-slots-repo.ts';
import type { DbScope } from '../../db/scope.ts';
import type { ChannelType } from '../channels/index.ts';

const NONE = () => 0;

/** Milliseconds between two messages of one channel, by type (its parsed config where it matters). */
export const MIN_GAP_MS: Record<ChannelType, (config: Record<string, unknown>) => number> = {
  // Machine receivers are the tenant's own servers (webhook) or answer 429 with Retry-After.
  webhook: NONE,
  opsgenie: NONE,
  // SMTP servers queue; grouping keeps a burst to a few mails.
  email: NONE,
  // "1 message per second" per incoming webhook (api.slack.com/apis/rate-limits).
  slack: () => 1000,
  // Workflow webhooks are throttled per flow; Teams asks for no more than about one a second.
  teams: () => 1000,
  // Webhooks allow 5 requests per 2 s, and a channel takes 30 messages a minute: one per 2 s keeps both.
  discord: () => 2000,
  // Chat webhooks: 1 request per second per space (developers.google.com/workspace/chat/limits).
  'google-chat': () => 1000,
  // Mattermost's default server rate limit is 10 requests a second per client.
  mattermost: () => 100,
  // Events API v2: 120 events a minute per integration key.
  pagerduty: () => 500,
  // About 1 message a second per chat, 20 a minute in groups and channels (core.telegram.org/bots/faq).
  telegram: (c) => (/^[-@]/.test(String(c.chat_id ?? '')) ? 3000 : 1000),
  // ntfy.sh refills a visitor's request budget at one every 5 s after a burst of 60; 1 s is its publish guidance.
  ntfy: () => 1000,
  // A Twilio long code sends 1 message segment a second.
  sms: () => 1000,
};

export function minGapMs(channel: AlertChannelRow, config: Record<string, unknown>): number {
  return Object.hasOwn(MIN_GAP_MS, channel.type) ? MIN_GAP_MS[channel.type as ChannelType](config) : 0;
}

/**
 * Takes the channel's next send slot: null when it may send now (the slot is then taken), else
 * the time its next slot opens. A channel without a limit only waits out a service's Retry-After
 * (read from the row loaded for this run: no write per send).
 */
export async function takeSendSlot(db: DbScope, channel: AlertChannelRow, gapMs: number, now: number): Promise<number | null> {
  if (gapMs <= 0) return channel.next_send_at !== null && channel.next_send_at > now ? channel.next_send_at : null;
  return alertSlotsRepo(db).take(channel.id, now, now + gapMs);
}

/** The service asked to wait (429 + Retry-After): no message of the channel goes before `until`. */
export async function holdChannelUntil(db: DbScope, channelId: string, until: number): Promise<void> {
  await alertSlotsRepo(db).pushBack(channelId, until);
}
