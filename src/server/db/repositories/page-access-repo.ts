// SQL for private status pages: a company's access rule and its share links, always filtered
// by the owning company.
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { PageAccessMode, StatusPageAccessTable, StatusPageShareLinksTable } from '../schema/public.ts';

export type PageAccessRow = Selectable<StatusPageAccessTable>;
export type ShareLinkRow = Selectable<StatusPageShareLinksTable>;

export function pageAccessRepo(db: DbScope) {
  const k = db.k;
  return {
    get(companyId: string): Promise<PageAccessRow | undefined> {
      return k.selectFrom('status_page_access').selectAll().where('company_id', '=', companyId).executeTakeFirst();
    },
    async save(companyId: string, row: { mode: PageAccessMode; password_hash: string | null; ip_allowlist: string }, now: number) {
      const values = { ...row, updated_at: now };
      await k
        .insertInto('status_page_access')
        .values({ company_id: companyId, ...values })
        .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
        .execute();
    },
    insertShareLink(row: ShareLinkRow): Promise<unknown> {
      return k.insertInto('status_page_share_links').values(row).execute();
    },
    shareLink(id: string, companyId: string): Promise<ShareLinkRow | undefined> {
      return k
        .selectFrom('status_page_share_links')
        .selectAll()
        .where('id', '=', id)
        .where('company_id', '=', companyId)
        .executeTakeFirst();
    },
    /** The newest links first (expired and revoked ones too, for the record). */
    shareLinks(companyId: string, limit: number): Promise<ShareLinkRow[]> {
      return k
        .selectFrom('status_page_share_links')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
    },
    async revokeShareLink(id: string, companyId: string, now: number): Promise<void> {
      await k
        .updateTable('status_page_share_links')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('company_id', '=', companyId)
        .where('revoked_at', 'is', null)
        .execute();
    },
  };
}
