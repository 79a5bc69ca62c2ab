// SQL for the alerts outbox: deliveries and their attempts. Leasing is one atomic UPDATE whose
// WHERE re-checks that the delivery is due and unleased, so of several processes racing for the
// same rows each row goes to exactly one (PostgreSQL re-evaluates the WHERE on the locked row
// version; SQLite has one writer). Finishing a delivery only applies while the lease is ours.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { AlertDeliveriesTable, AlertDeliveryAttemptsTable, DeliveryState } from '../schema/alerts.ts';

export type AlertDeliveryRow = Selectable<AlertDeliveriesTable>;
export type AlertAttemptRow = Selectable<AlertDeliveryAttemptsTable>;

export function alertDeliveriesRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Writes deliveries; one that exists for the same channel and cause is left alone. */
    async insertIdempotent(rows: Insertable<AlertDeliveriesTable>[]): Promise<void> {
      if (rows.length === 0) return;
      await k
        .insertInto('alert_deliveries')
        .values(rows)
        .onConflict((oc) => oc.columns(['channel_id', 'dedupe_key']).doNothing())
        .execute();
    },

    /** Deliveries still to be sent (pending or retrying) and given up (failed), every company: the operator's metrics. */
    async outboxDepth(): Promise<{ pending: number; failed: number }> {
      const rows = await k
        .selectFrom('alert_deliveries')
        .select((eb) => ['state', eb.fn.countAll<number>().as('n')])
        .where('state', 'in', ['pending', 'retrying', 'failed'])
        .groupBy('state')
        .execute();
      const n = (state: DeliveryState) => Number(rows.find((r) => r.state === state)?.n ?? 0);
      return { pending: n('pending') + n('retrying'), failed: n('failed') };
    },

    /** Leases up to `limit` due deliveries for `holder` until `until`; answers them. */
    async lease(holder: string, now: number, until: number, limit: number): Promise<AlertDeliveryRow[]> {
      const dueIds = k
        .selectFrom('alert_deliveries')
        .select('id')
        .where('state', 'in', ['pending', 'retrying'])
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]))
        .orderBy('next_attempt_at')
        .limit(limit);
      // The outer WHERE repeats the test: a row another process leased meanwhile is skipped.
      return k
        .updateTable('alert_deliveries')
        .set({ lease_holder: holder, lease_expires_at: until })
        .where('id', 'in', dueIds)
        .where('state', 'in', ['pending', 'retrying'])
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]))
        .returningAll()
        .execute();
    },

    /** Applies the outcome of an attempt while `holder` still holds the lease; answers whether it did. */
    async finish(id: string, holder: string, patch: Updateable<AlertDeliveriesTable>): Promise<boolean> {
      const r = await k
        .updateTable('alert_deliveries')
        .set({ ...patch, lease_holder: null, lease_expires_at: null })
        .where('id', '=', id)
        .where('lease_holder', '=', holder)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async addAttempt(row: Insertable<AlertDeliveryAttemptsTable>): Promise<void> {
      await k.insertInto('alert_delivery_attempts').values(row).execute();
    },

    find(id: string, companyId: string | null): Promise<AlertDeliveryRow | undefined> {
      let q = k.selectFrom('alert_deliveries').selectAll().where('id', '=', id);
      if (companyId) q = q.where('company_id', '=', companyId);
      return q.executeTakeFirst();
    },

    list(
      companyId: string | null,
      f: { channelId?: string; state?: DeliveryState; group?: string; limit: number; offset: number },
    ): Promise<Array<AlertDeliveryRow & { channel_name: string | null; channel_type: string | null; recipient_name: string | null }>> {
      // A personal delivery has a user instead of a channel (migration 0501).
      let q = k
        .selectFrom('alert_deliveries')
        .leftJoin('alert_channels', 'alert_channels.id', 'alert_deliveries.channel_id')
        .leftJoin('users', 'users.id', 'alert_deliveries.user_id')
        .selectAll('alert_deliveries')
        .select(['alert_channels.name as channel_name', 'alert_channels.type as channel_type', 'users.full_name as recipient_name']);
      if (companyId) q = q.where('alert_deliveries.company_id', '=', companyId);
      if (f.channelId) q = q.where('alert_deliveries.channel_id', '=', f.channelId);
      if (f.state) q = q.where('alert_deliveries.state', '=', f.state);
      if (f.group) {
        const group = f.group;
        q = q.where((eb) => eb.or([eb('alert_deliveries.id', '=', group), eb('alert_deliveries.grouped_into', '=', group)]));
      }
      return q.orderBy('alert_deliveries.created_at', 'desc').orderBy('alert_deliveries.id').limit(f.limit).offset(f.offset).execute();
    },

    /** How many deliveries each of these carried in its grouped message (carriers only). */
    async groupedCounts(deliveryIds: string[]): Promise<Map<string, number>> {
      if (deliveryIds.length === 0) return new Map();
      const rows = await k
        .selectFrom('alert_deliveries')
        .select((eb) => ['grouped_into', eb.fn.countAll().as('n')])
        .where('grouped_into', 'in', deliveryIds)
        .groupBy('grouped_into')
        .execute();
      return new Map(rows.map((r) => [r.grouped_into!, Number(r.n)]));
    },

    attemptsOf(deliveryIds: string[]): Promise<AlertAttemptRow[]> {
      if (deliveryIds.length === 0) return Promise.resolve([]);
      return k.selectFrom('alert_delivery_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('at').execute();
    },

    /** Puts a delivery back in line now, with a fresh retry window (the Retry action). */
    async requeue(id: string, now: number, retryUntil: number): Promise<void> {
      await k
        .updateTable('alert_deliveries')
        .set({
          state: 'pending',
          next_attempt_at: now,
          retry_until: retryUntil,
          lease_holder: null,
          lease_expires_at: null,
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
    },
  };
}
