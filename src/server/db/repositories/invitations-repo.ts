// SQL for invitations (link tokens stored as SHA-256 hashes). Every list takes its company
// filter from the caller.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { InvitationsTable } from '../schema/identity.ts';

export type InvitationRow = Selectable<InvitationsTable>;
export type InvitationWithCompany = InvitationRow & { company_name: string | null };

export function invitationsRepo(db: DbScope) {
  const k = db.k;
  const withCompany = () =>
    k.selectFrom('invitations as i').leftJoin('companies as c', 'c.id', 'i.company_id').selectAll('i').select('c.name as company_name');
  return {
    async insert(row: Insertable<InvitationsTable>): Promise<void> {
      await k
        .insertInto('invitations')
        .values({ ...row, email: row.email.toLowerCase() })
        .execute();
    },
    findById(id: string): Promise<InvitationWithCompany | undefined> {
      return withCompany().where('i.id', '=', id).executeTakeFirst();
    },
    findByHash(tokenHash: string): Promise<InvitationWithCompany | undefined> {
      return withCompany().where('i.token_hash', '=', tokenHash).executeTakeFirst();
    },
    /** Neither used nor revoked (expired ones included: they can be resent). */
    listOpen(filter: { companyId: string | null }): Promise<InvitationWithCompany[]> {
      let q = withCompany().where('i.used_at', 'is', null).where('i.revoked_at', 'is', null);
      if (filter.companyId) q = q.where('i.company_id', '=', filter.companyId);
      return q.orderBy('i.created_at', 'desc').orderBy('i.id').execute();
    },
    findOpenByEmail(email: string): Promise<InvitationRow | undefined> {
      return k
        .selectFrom('invitations')
        .selectAll()
        .where('email', '=', email.toLowerCase())
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
    },
    async countOpenForCompany(companyId: string, now: number): Promise<number> {
      const r = await k
        .selectFrom('invitations')
        .where('company_id', '=', companyId)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** A new link: the old hash is replaced, so the old link no longer finds anything. */
    async replaceToken(id: string, tokenHash: string, now: number, expiresAt: number): Promise<number> {
      const r = await k
        .updateTable('invitations')
        .set({ token_hash: tokenHash, sent_at: now, expires_at: expiresAt })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async revoke(id: string, now: number): Promise<number> {
      const r = await k
        .updateTable('invitations')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    /** Marks it used: 0 when it was used, revoked or replaced meanwhile, or has expired. */
    async consume(id: string, tokenHash: string, now: number): Promise<number> {
      const r = await k
        .updateTable('invitations')
        .set({ used_at: now })
        .where('id', '=', id)
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
  };
}
