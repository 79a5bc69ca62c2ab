// SQL for grouped alerts: a lane's deliveries of one event still waiting for their first attempt,
// merged into one message. A lane is where messages go: a channel, or one person's e-mail, SMS or
// webhook. Claiming them is one UPDATE whose WHERE re-checks that each still waits and is not
// leased by another sender, so a delivery joins at most one message.
import type { ExpressionBuilder } from 'kysely';
import type { PersonalTarget } from '../schema/alerts.ts';
import type { Database } from '../schema/index.ts';
import type { DbScope } from '../scope.ts';

/** Where a delivery goes: a channel, or a user's own address, phone or webhook. */
export type AlertLane = { channelId: string } | { userId: string; target: PersonalTarget };

/** The deliveries of `lane` (personal lanes have no channel, and subscriber rows no user). */
const inLane = (lane: AlertLane) => (eb: ExpressionBuilder<Database, 'alert_deliveries'>) =>
  'channelId' in lane
    ? eb('channel_id', '=', lane.channelId)
    : eb.and([eb('channel_id', 'is', null), eb('user_id', '=', lane.userId), eb('target', '=', lane.target)]);

/** Not leased by another sender: unleased, its lease run out, or leased by `holder`. */
const takeableBy = (holder: string, now: number) => (eb: ExpressionBuilder<Database, 'alert_deliveries'>) =>
  eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now), eb('lease_holder', '=', holder)]);

export function alertGroupsRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Whether another delivery of the lane and event was written up to `windowMs` before `d` (a burst). */
    async anyJustBefore(lane: AlertLane, d: { id: string; event: string; created_at: number }, windowMs: number): Promise<boolean> {
      const row = await k
        .selectFrom('alert_deliveries')
        .select('id')
        .where(inLane(lane))
        .where('event', '=', d.event)
        .where('state', 'in', ['pending', 'retrying', 'delivered', 'failed', 'grouped'])
        .where('created_at', '>=', d.created_at - windowMs)
        // Written in the same millisecond (one transaction): the smaller id counts as earlier.
        .where((eb) => eb.or([eb('created_at', '<', d.created_at), eb.and([eb('created_at', '=', d.created_at), eb('id', '<', d.id)])]))
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** First and last write time of the lane's deliveries of this event not yet attempted. */
    async waitingSpan(lane: AlertLane, event: string): Promise<{ first: number; last: number } | null> {
      const row = await k
        .selectFrom('alert_deliveries')
        .select((eb) => [eb.fn.min('created_at').as('first'), eb.fn.max('created_at').as('last')])
        .where(inLane(lane))
        .where('event', '=', event)
        .where('state', '=', 'pending')
        .where('attempts', '=', 0)
        .executeTakeFirst();
      return row?.first != null && row.last != null ? { first: Number(row.first), last: Number(row.last) } : null;
    },

    /**
     * The lane's other deliveries of this event not yet attempted that `holder` may take
     * (unleased, or leased by it), oldest first.
     */
    async waiting(
      carrierId: string,
      lane: AlertLane,
      event: string,
      holder: string,
      now: number,
    ): Promise<{ id: string; payload: string }[]> {
      return k
        .selectFrom('alert_deliveries')
        .select(['id', 'payload'])
        .where(inLane(lane))
        .where('event', '=', event)
        .where('state', '=', 'pending')
        .where('attempts', '=', 0)
        .where('id', '!=', carrierId)
        .where(takeableBy(holder, now))
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    /**
     * Marks these deliveries as carried by `carrierId` where each still waits for its first
     * attempt and no other sender leases it; answers the payloads of those it took, oldest first.
     */
    async claim(carrierId: string, ids: string[], holder: string, now: number): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await k
        .updateTable('alert_deliveries')
        .set({ state: 'grouped', grouped_into: carrierId, lease_holder: null, lease_expires_at: null, updated_at: now })
        .where('id', 'in', ids)
        .where('id', '!=', carrierId)
        .where('state', '=', 'pending')
        .where('attempts', '=', 0)
        .where(takeableBy(holder, now))
        .returning(['id', 'payload', 'created_at'])
        .execute();
      return rows.sort((a, b) => Number(a.created_at) - Number(b.created_at) || (a.id < b.id ? -1 : 1)).map((r) => r.payload);
    },

    /** Stores the grouped message's payload on its carrier while `holder` leases it. */
    async setPayload(id: string, holder: string, payload: string): Promise<void> {
      await k.updateTable('alert_deliveries').set({ payload }).where('id', '=', id).where('lease_holder', '=', holder).execute();
    },
  };
}
