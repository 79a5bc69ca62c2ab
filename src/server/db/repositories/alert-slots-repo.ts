// SQL for alert channels' rate limits: each channel row's next_send_at. Taking a slot is one
// UPDATE that re-checks the slot is free, so of processes racing for it exactly one wins.
import type { DbScope } from '../scope.ts';

export function alertSlotsRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Takes the channel's slot when free at `now` (the next one opens at `next`): null, else when it opens. */
    async take(channelId: string, now: number, next: number): Promise<number | null> {
      const r = await k
        .updateTable('alert_channels')
        .set({ next_send_at: next })
        .where('id', '=', channelId)
        .where((eb) => eb.or([eb('next_send_at', 'is', null), eb('next_send_at', '<=', now)]))
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) return null;
      const row = await k.selectFrom('alert_channels').select('next_send_at').where('id', '=', channelId).executeTakeFirst();
      return row?.next_send_at != null ? Number(row.next_send_at) : now;
    },

    /** No slot opens before `until`. */
    async pushBack(channelId: string, until: number): Promise<void> {
      await k
        .updateTable('alert_channels')
        .set({ next_send_at: until })
        .where('id', '=', channelId)
        .where((eb) => eb.or([eb('next_send_at', 'is', null), eb('next_send_at', '<', until)]))
        .execute();
    },
  };
}
