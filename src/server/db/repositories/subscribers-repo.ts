// SQL for status-page subscribers: always filtered by the owning company (null scope: super
// admins, every company), except the token lookups, whose token is the credential.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { StatusSubscribersTable, SubscriberKind, SubscriberState } from '../schema/public.ts';

export type SubscriberRow = Selectable<StatusSubscribersTable>;

export function subscribersRepo(db: DbScope) {
  const k = db.k;
  return {
    byEmail(companyId: string, email: string): Promise<SubscriberRow | undefined> {
      return k
        .selectFrom('status_subscribers')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('email', '=', email)
        .executeTakeFirst();
    },
    /** A chat subscriber of a company by its service and webhook URL. */
    byWebhook(companyId: string, kind: SubscriberKind, url: string): Promise<SubscriberRow | undefined> {
      return k
        .selectFrom('status_subscribers')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('kind', '=', kind)
        .where('webhook_url', '=', url)
        .executeTakeFirst();
    },
    byPhone(companyId: string, phone: string): Promise<SubscriberRow | undefined> {
      return k
        .selectFrom('status_subscribers')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('phone', '=', phone)
        .executeTakeFirst();
    },
    /** Counts a wrong guess of a pending SMS code; answers the guesses made so far. */
    async wrongGuess(id: string, now: number): Promise<number> {
      await k
        .updateTable('status_subscribers')
        .set((eb) => ({ confirm_attempts: eb('confirm_attempts', '+', 1), updated_at: now }))
        .where('id', '=', id)
        .execute();
      const r = await k.selectFrom('status_subscribers').select('confirm_attempts').where('id', '=', id).executeTakeFirst();
      return Number(r?.confirm_attempts ?? 0);
    },
    /** STOP: every company's subscription of the number ends (answers how many were live). */
    async unsubscribePhone(phone: string, now: number): Promise<number> {
      const r = await k
        .updateTable('status_subscribers')
        .set({ state: 'unsubscribed', confirm_token_hash: null, confirm_expires_at: null, updated_at: now })
        .where('phone', '=', phone)
        .where('state', '!=', 'unsubscribed')
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    byConfirmHash(hash: string): Promise<SubscriberRow | undefined> {
      return k.selectFrom('status_subscribers').selectAll().where('confirm_token_hash', '=', hash).executeTakeFirst();
    },
    find(id: string, companyId: string | null): Promise<SubscriberRow | undefined> {
      let q = k.selectFrom('status_subscribers').selectAll().where('id', '=', id);
      if (companyId) q = q.where('company_id', '=', companyId);
      return q.executeTakeFirst();
    },
    /** Confirmed subscribers of a company (the notices' recipients). */
    confirmedOf(companyId: string): Promise<SubscriberRow[]> {
      return k.selectFrom('status_subscribers').selectAll().where('company_id', '=', companyId).where('state', '=', 'confirmed').execute();
    },
    list(
      companyId: string | null,
      f: { state?: SubscriberState; kind?: SubscriberKind; limit: number; offset: number },
    ): Promise<SubscriberRow[]> {
      let q = k.selectFrom('status_subscribers').selectAll();
      if (companyId) q = q.where('company_id', '=', companyId);
      if (f.state) q = q.where('state', '=', f.state);
      if (f.kind) q = q.where('kind', '=', f.kind);
      return q.orderBy('created_at', 'desc').orderBy('id').limit(f.limit).offset(f.offset).execute();
    },
    /** Subscribers per state (unsubscribed ones included, so a list page can say how many left). */
    async counts(companyId: string | null): Promise<Record<SubscriberState, number>> {
      let q = k.selectFrom('status_subscribers').select(['state', (eb) => eb.fn.countAll<number>().as('n')]);
      if (companyId) q = q.where('company_id', '=', companyId);
      const rows = await q.groupBy('state').execute();
      const out: Record<SubscriberState, number> = { pending: 0, confirmed: 0, unsubscribed: 0 };
      for (const r of rows) out[r.state] = Number(r.n);
      return out;
    },
    /** Pending and confirmed subscribers of a company (its cap counts these). */
    async liveCount(companyId: string): Promise<number> {
      const r = await k
        .selectFrom('status_subscribers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .where('state', '!=', 'unsubscribed')
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async insert(row: Insertable<StatusSubscribersTable>): Promise<void> {
      await k.insertInto('status_subscribers').values(row).execute();
    },
    async update(id: string, patch: Updateable<StatusSubscribersTable>): Promise<void> {
      await k.updateTable('status_subscribers').set(patch).where('id', '=', id).execute();
    },
    /** Sets the patch only while the row is in `state`; answers whether it did (races confirm once). */
    async transition(id: string, state: SubscriberState, patch: Updateable<StatusSubscribersTable>): Promise<boolean> {
      const r = await k.updateTable('status_subscribers').set(patch).where('id', '=', id).where('state', '=', state).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async delete(id: string): Promise<void> {
      await k.deleteFrom('status_subscribers').where('id', '=', id).execute();
    },
  };
}
