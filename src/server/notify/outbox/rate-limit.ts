// Per-channel rate limits: the least time between two messages of one channel, which each channel
// module declares (`minGapMs`) from what its service documents, kept on the channel row
// (next_send_at) so every process sending for it honours one limit. A delivery that finds its channel busy waits for the next free slot rather
// than being refused by the service; a 429's Retry-After pushes the whole channel back.
import type { AlertChannelRow } from '../../db/repositories/alert-channels-repo.ts';
import { alertSlotsRepo } from '../../db/repositories/alert-slots-repo.ts';
import type { DbScope } from '../../db/scope.ts';
import { channelOf } from '../channels/index.ts';

/** Milliseconds between two messages of the channel: its module's `minGapMs` (0 for an unknown type). */
export function minGapMs(channel: AlertChannelRow, config: Record<string, unknown>): number {
  return channelOf(channel.type)?.minGapMs(config) ?? 0;
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
