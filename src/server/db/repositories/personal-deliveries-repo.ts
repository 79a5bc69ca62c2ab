// SQL for personal deliveries: outbox rows addressed to a user (user_id + target) instead of a
// channel. One per cause, user and target, like one per cause and channel.
import type { Insertable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { AlertDeliveriesTable } from '../schema/alerts.ts';

export function personalDeliveriesRepo(db: DbScope) {
  return {
    async insertIdempotent(rows: Insertable<AlertDeliveriesTable>[]): Promise<void> {
      if (rows.length === 0) return;
      await db.k
        .insertInto('alert_deliveries')
        .values(rows)
        .onConflict((oc) => oc.columns(['user_id', 'target', 'dedupe_key']).doNothing())
        .execute();
    },
  };
}
