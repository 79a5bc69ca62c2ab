// SQL for the admin's settings of domain checks (DKIM selectors, watched names), one row per
// domain asset; a domain without a row has none.
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { SecurityDomainSettingsTable } from '../schema/security.ts';

export type DomainSettingsRow = Selectable<SecurityDomainSettingsTable>;

export function domainSettingsRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Settings of a company's domains (every company's for `null`). */
    list(companyId: string | null): Promise<DomainSettingsRow[]> {
      let q = k.selectFrom('security_domain_settings').selectAll();
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      return q.execute();
    },
    get(assetId: string): Promise<DomainSettingsRow | undefined> {
      return k.selectFrom('security_domain_settings').selectAll().where('asset_id', '=', assetId).executeTakeFirst();
    },
    async put(row: DomainSettingsRow): Promise<void> {
      await k
        .insertInto('security_domain_settings')
        .values(row)
        .onConflict((oc) =>
          oc
            .column('asset_id')
            .doUpdateSet({ dkim_selectors: row.dkim_selectors, watched_names: row.watched_names, updated_at: row.updated_at }),
        )
        .execute();
    },
  };
}
