// SQL for the security suite's assets. Every read a company makes names its company; the jobs
// that do something active to a host read `listVerified`, so an unverified host is never touched.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { SecurityAssetsTable, VerificationMethod } from '../schema/security.ts';

export type SecurityAssetRow = Selectable<SecurityAssetsTable>;

export function securityAssetsRepo(db: DbScope) {
  const k = db.k;
  return {
    async insert(row: Insertable<SecurityAssetsTable>): Promise<void> {
      await k.insertInto('security_assets').values(row).execute();
    },
    /** A company's assets by host name; every company's for `null` (super admins). */
    list(companyId: string | null): Promise<SecurityAssetRow[]> {
      let q = k.selectFrom('security_assets').selectAll();
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      return q.orderBy('hostname').orderBy('id').execute();
    },
    /** One asset, only within `companyId` when one is given. */
    get(companyId: string | null, id: string): Promise<SecurityAssetRow | undefined> {
      let q = k.selectFrom('security_assets').selectAll().where('id', '=', id);
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      return q.executeTakeFirst();
    },
    /** Verified assets of every company (or of one), for the jobs that act on hosts. */
    listVerified(companyId?: string): Promise<SecurityAssetRow[]> {
      let q = k.selectFrom('security_assets').selectAll().where('verified_at', 'is not', null);
      if (companyId !== undefined) q = q.where('company_id', '=', companyId);
      return q.orderBy('company_id').orderBy('hostname').execute();
    },
    /** Assets whose proof of control is due to be checked (never checked, or last checked before `before`). */
    listDueForVerification(before: number, limit: number): Promise<SecurityAssetRow[]> {
      return k
        .selectFrom('security_assets')
        .selectAll()
        .where((eb) => eb.or([eb('last_verification_at', 'is', null), eb('last_verification_at', '<', before)]))
        .orderBy('last_verification_at')
        .limit(limit)
        .execute();
    },
    /** A proof found: verified from now, bound to `addresses` (null: bound at the next lookup), any renewal settled. */
    async markVerified(id: string, method: VerificationMethod, at: number, addresses: readonly string[] | null = null): Promise<void> {
      await k
        .updateTable('security_assets')
        .set({
          verification_method: method,
          verified_at: at,
          last_verification_at: at,
          last_verification_error: null,
          verified_addresses: addresses === null ? null : JSON.stringify(addresses),
          renewal_reason: null,
          renewal_needed_at: null,
          updated_at: at,
        })
        .where('id', '=', id)
        .execute();
    },
    /**
     * A proof found again for an asset already verified: it stays verified since its first proof.
     * With `addresses` the proof is bound to them anew (an admin's "Verify now", or a first binding).
     */
    async confirmVerified(id: string, method: VerificationMethod, at: number, addresses?: readonly string[]): Promise<void> {
      await k
        .updateTable('security_assets')
        .set({
          verification_method: method,
          last_verification_at: at,
          last_verification_error: null,
          updated_at: at,
          ...(addresses ? { verified_addresses: JSON.stringify(addresses), renewal_reason: null, renewal_needed_at: null } : {}),
        })
        .where('id', '=', id)
        .execute();
    },
    /** Binds an asset verified before proofs bound addresses to `addresses` (its first use after the upgrade). */
    async bindAddresses(id: string, addresses: readonly string[], at: number): Promise<void> {
      await k
        .updateTable('security_assets')
        .set({ verified_addresses: JSON.stringify(addresses), updated_at: at })
        .where('id', '=', id)
        .where('verified_addresses', 'is', null)
        .execute();
    },
    /** The name points outside the proven addresses: nothing connects to it until control is proven again. */
    async markRenewalNeeded(id: string, reason: string, at: number): Promise<void> {
      await k
        .updateTable('security_assets')
        .set({ renewal_reason: reason.slice(0, 500), renewal_needed_at: at, updated_at: at })
        .where('id', '=', id)
        .execute();
    },
    async clearRenewal(id: string, at: number): Promise<void> {
      await k
        .updateTable('security_assets')
        .set({ renewal_reason: null, renewal_needed_at: null, updated_at: at })
        .where('id', '=', id)
        .execute();
    },
    /** A failed proof: the asset stops being verified until control is proven again. */
    async markUnverified(id: string, error: string, at: number): Promise<void> {
      await k
        .updateTable('security_assets')
        .set({
          verified_at: null,
          last_verification_at: at,
          last_verification_error: error.slice(0, 500),
          verified_addresses: null,
          renewal_reason: null,
          renewal_needed_at: null,
          updated_at: at,
        })
        .where('id', '=', id)
        .execute();
    },
    async delete(companyId: string | null, id: string): Promise<boolean> {
      let q = k.deleteFrom('security_assets').where('id', '=', id);
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      const r = await q.executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
