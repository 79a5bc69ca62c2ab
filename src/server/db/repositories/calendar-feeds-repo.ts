// SQL of private calendar feeds (migration 0521): one row per schedule or person; issuing a new
// token replaces the row, revoking deletes it.
import type { Insertable, Selectable } from 'kysely';
import type { CalendarFeedsTable } from '../schema/oncall.ts';
import type { DbScope } from '../scope.ts';

export type CalendarFeedRow = Selectable<CalendarFeedsTable>;

export type FeedOwner = { scheduleId: string } | { userId: string };

export function calendarFeedsRepo({ k }: DbScope) {
  const revoke = async (owner: FeedOwner): Promise<void> => {
    const q = k.deleteFrom('calendar_feeds');
    await ('scheduleId' in owner ? q.where('schedule_id', '=', owner.scheduleId) : q.where('user_id', '=', owner.userId)).execute();
  };
  return {
    revoke,
    async replace(owner: FeedOwner, row: Insertable<CalendarFeedsTable>): Promise<void> {
      await revoke(owner);
      await k.insertInto('calendar_feeds').values(row).execute();
    },
    async byTokenHash(hash: string): Promise<CalendarFeedRow | undefined> {
      return k.selectFrom('calendar_feeds').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    },
  };
}
