// SQL for per-company ingest API keys (stored as SHA-256 hashes, revoked by time stamp).
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { ApiKeysTable } from '../schema/telemetry.ts';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export function apiKeysRepo(db: DbScope) {
  const k = db.k;
  return {
    async insert(row: Insertable<ApiKeysTable>): Promise<void> {
      await k.insertInto('api_keys').values(row).execute();
    },
    /** Active keys, newest first; null company = every company. */
    listActive(companyId: string | null): Promise<ApiKeyRow[]> {
      let q = k.selectFrom('api_keys').selectAll().where('revoked_at', 'is', null);
      if (companyId) q = q.where('company_id', '=', companyId);
      return q.orderBy('created_at', 'desc').orderBy('id').execute();
    },
    async countActive(companyId: string): Promise<number> {
      const r = await k
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** The active key with this hash, if its company is active too. */
    findActiveByHash(
      keyHash: string,
    ): Promise<{ id: string; company_id: string; last_used_at: number | null; plan: string; allowed_origins: string } | undefined> {
      return k
        .selectFrom('api_keys')
        .innerJoin('companies', 'companies.id', 'api_keys.company_id')
        .select(['api_keys.id', 'api_keys.company_id', 'api_keys.last_used_at', 'companies.plan', 'api_keys.allowed_origins'])
        .where('api_keys.key_hash', '=', keyHash)
        .where('api_keys.revoked_at', 'is', null)
        .where('companies.is_active', '=', true)
        .executeTakeFirst();
    },
    /** Revokes an active key; null company = any company (super admin). Returns rows changed. */
    async revoke(id: string, companyId: string | null, now: number): Promise<number> {
      let q = k.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null);
      if (companyId) q = q.where('company_id', '=', companyId);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    /** The allowed_origins texts of a company's active keys, the company found by subdomain (active only). */
    async originsOnHost(subdomain: string): Promise<string[]> {
      const rows = await k
        .selectFrom('api_keys')
        .innerJoin('companies', 'companies.id', 'api_keys.company_id')
        .select('api_keys.allowed_origins')
        .where('companies.subdomain', '=', subdomain)
        .where('companies.is_active', '=', true)
        .where('api_keys.revoked_at', 'is', null)
        .where('api_keys.allowed_origins', '!=', '[]')
        .execute();
      return rows.map((r) => r.allowed_origins);
    },
    /** Changes an active key; null company = any company (super admin). The row after, if found. */
    async update(id: string, companyId: string | null, set: { name?: string; allowed_origins?: string }): Promise<ApiKeyRow | undefined> {
      let q = k.updateTable('api_keys').set(set).where('id', '=', id).where('revoked_at', 'is', null);
      if (companyId) q = q.where('company_id', '=', companyId);
      if (Number((await q.executeTakeFirst()).numUpdatedRows) === 0) return undefined;
      return k.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async touch(id: string, now: number): Promise<void> {
      await k.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
    },
  };
}
