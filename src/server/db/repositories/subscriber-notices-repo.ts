// SQL the subscriber notices read: an incident or maintenance window with the public component
// it concerns (null when it concerns a private monitor, which no notice may name), the windows
// whose start or end may fall in a period, and the outbox rows written for subscribers.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { AlertDeliveriesTable } from '../schema/alerts.ts';
import type { IncidentsTable, MaintenanceWindowsTable } from '../schema/monitoring.ts';

export type PublicComponent = { id: string; name: string };

export function subscriberNoticesRepo(db: DbScope) {
  const k = db.k;
  const component = async (monitorId: string | null): Promise<PublicComponent | null | 'private'> => {
    if (monitorId === null) return null;
    const m = await k.selectFrom('monitors').select(['id', 'name', 'is_public']).where('id', '=', monitorId).executeTakeFirst();
    return m && Number(m.is_public) === 1 ? { id: m.id, name: m.name } : 'private';
  };
  return {
    component,
    incident(id: string): Promise<Selectable<IncidentsTable> | undefined> {
      return k.selectFrom('incidents').selectAll().where('id', '=', id).executeTakeFirst();
    },
    window(id: string): Promise<Selectable<MaintenanceWindowsTable> | undefined> {
      return k.selectFrom('maintenance_windows').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** Windows, of every company, that may start or end in (since, until]. */
    windowsAround(since: number, until: number): Promise<Selectable<MaintenanceWindowsTable>[]> {
      return k
        .selectFrom('maintenance_windows')
        .selectAll()
        .where('cancelled_at', 'is', null)
        .where('starts_at', '<=', until)
        .where((eb) => eb.or([eb('ends_at', '>', since), eb('recurrence', 'is not', null)]))
        .limit(10_000)
        .execute();
    },
    /** The stored ENABLE_NOTIFICATIONS value (undefined: never set, the default applies). */
    async storedFlag(name: string): Promise<boolean | undefined> {
      const r = await k.selectFrom('feature_flags').select('enabled').where('name', '=', name).executeTakeFirst();
      return r ? Number(r.enabled) === 1 : undefined;
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
