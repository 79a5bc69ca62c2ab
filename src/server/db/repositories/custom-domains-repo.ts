// SQL for the custom domains of status pages. Company reads name their company; the host
// resolver reads every verified domain with its company's subdomain at once (a small table,
// kept in memory by domain/custom-domains/resolve.ts).
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { CustomDomainsTable } from '../schema/custom-domains.ts';

export type CustomDomainRow = Selectable<CustomDomainsTable>;

export interface DomainRoute {
  domain: string;
  company_id: string;
  state: CustomDomainsTable['state'];
  /** the company's subdomain when it is active; null otherwise (nothing is served) */
  subdomain: string | null;
}

export function customDomainsRepo(db: DbScope) {
  const k = db.k;
  return {
    async insert(row: Insertable<CustomDomainsTable>): Promise<void> {
      await k.insertInto('custom_domains').values(row).execute();
    },
    /** A company's domains by name; every company's for `null` (super admins). */
    list(companyId: string | null): Promise<CustomDomainRow[]> {
      let q = k.selectFrom('custom_domains').selectAll();
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      return q.orderBy('domain').orderBy('id').execute();
    },
    /** One domain, only within `companyId` when one is given. */
    get(companyId: string | null, id: string): Promise<CustomDomainRow | undefined> {
      let q = k.selectFrom('custom_domains').selectAll().where('id', '=', id);
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      return q.executeTakeFirst();
    },
    findByDomain(domain: string): Promise<CustomDomainRow | undefined> {
      return k.selectFrom('custom_domains').selectAll().where('domain', '=', domain).executeTakeFirst();
    },
    async countOf(companyId: string): Promise<number> {
      const r = await k
        .selectFrom('custom_domains')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    /** Every domain with its company's subdomain (active companies only), for the host resolver. */
    async routes(): Promise<DomainRoute[]> {
      const rows = await k
        .selectFrom('custom_domains as d')
        .innerJoin('companies as c', 'c.id', 'd.company_id')
        .select(['d.domain', 'd.company_id', 'd.state', 'c.subdomain', 'c.is_active'])
        .execute();
      return rows.map((r) => ({
        domain: r.domain,
        company_id: r.company_id,
        state: r.state,
        subdomain: r.is_active ? r.subdomain : null,
      }));
    },
    /** Verified domains last checked before `before` (the daily re-check). */
    listDueForRecheck(before: number, limit: number): Promise<CustomDomainRow[]> {
      return k
        .selectFrom('custom_domains')
        .selectAll()
        .where('state', '=', 'verified')
        .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', before)]))
        .orderBy('checked_at')
        .limit(limit)
        .execute();
    },
    async markVerified(id: string, at: number): Promise<void> {
      await k
        .updateTable('custom_domains')
        .set((eb) => ({
          state: 'verified',
          // when it became verified: kept while it stays so
          verified_at: eb.case().when('state', '=', 'verified').then(eb.ref('verified_at')).else(eb.val(at)).end(),
          checked_at: at,
          last_error: null,
          updated_at: at,
        }))
        .where('id', '=', id)
        .execute();
    },
    /** A failed proof: the domain stops being served until it is proven again (verified_at stays: it once was). */
    async markFailed(id: string, error: string, at: number): Promise<void> {
      await k
        .updateTable('custom_domains')
        .set({ state: 'failed', checked_at: at, last_error: error.slice(0, 500), updated_at: at })
        .where('id', '=', id)
        .execute();
    },
    /** A check that learnt nothing (the DNS did not answer): the state stays, the error is kept. */
    async markCheckError(id: string, error: string, at: number): Promise<void> {
      await k
        .updateTable('custom_domains')
        .set({ last_error: error.slice(0, 500), updated_at: at })
        .where('id', '=', id)
        .execute();
    },
    async delete(companyId: string | null, id: string): Promise<boolean> {
      let q = k.deleteFrom('custom_domains').where('id', '=', id);
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      const r = await q.executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
