// SQL the subscriber notices read: an incident, and the outbox rows
// written for subscribers.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { AlertDeliveriesTable } from '../schema/alerts.ts';
import type { IncidentsTable } from '../schema/monitoring.ts';

export function subscriberNoticesRepo(db: DbScope) {
  const k = db.k;
  return {
    incident(id: string): Promise<Selectable<IncidentsTable> | undefined> {
      return k.selectFrom('incidents').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The stored ENABLE_NOTIFICATIONS value (undefined: never set, the default applies). */
    async storedFlag(name: string): Promise<boolean | undefined> {
      const r = await k.selectFrom('feature_flags').select('enabled').where('name', '=', name).executeTakeFirst();
      return r?.enabled;
    },
    /** Writes subscriber deliveries; one that exists for the same subscriber and cause is left alone. */
    async insertIdempotent(rows: Insertable<AlertDeliveriesTable>[]): Promise<void> {
      for (let i = 0; i < rows.length; i += 500) {
        await k
          .insertInto('alert_deliveries')
          .values(rows.slice(i, i + 500))
          .onConflict((oc) => oc.columns(['subscriber_id', 'dedupe_key']).doNothing())
          .execute();
      }
    },
  };
}
