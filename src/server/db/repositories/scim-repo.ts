// SQL for SCIM provisioning (migration 0012): tokens, role-group settings, the SCIM side of
// users, groups and their members. Every query of a company's data takes its company id.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { ScimGroupsTable, ScimSettingsTable, ScimTokensTable } from '../schema/scim.ts';
import type { UserRow } from './users-repo.ts';

export type ScimTokenRow = Selectable<ScimTokensTable>;
export type ScimGroupRow = Selectable<ScimGroupsTable>;
export type ScimSettingsRow = Selectable<ScimSettingsTable>;
/** A live token with what decides whether it may still act: its company's state and plan. */
export type ScimTokenAuthRow = ScimTokenRow & { company_active: boolean; company_plan: string; company_subdomain: string | null };
/** A company user with what SCIM keeps beside the users row. */
export type ScimUserRow = UserRow & { external_id: string | null; given_name: string | null; family_name: string | null };

export function scimRepo(db: DbScope) {
  const k = db.k;
  const users = () =>
    k
      .selectFrom('users as u')
      .leftJoin('scim_users as s', 's.user_id', 'u.id')
      .selectAll('u')
      .select(['s.external_id', 's.given_name', 's.family_name']);
  return {
    // ---- tokens
    findLiveToken(companyId: string): Promise<ScimTokenRow | undefined> {
      return k.selectFrom('scim_tokens').selectAll().where('company_id', '=', companyId).where('revoked_at', 'is', null).executeTakeFirst();
    },
    findTokenByHash(tokenHash: string): Promise<ScimTokenAuthRow | undefined> {
      return k
        .selectFrom('scim_tokens as t')
        .innerJoin('companies as c', 'c.id', 't.company_id')
        .selectAll('t')
        .select(['c.is_active as company_active', 'c.plan as company_plan', 'c.subdomain as company_subdomain'])
        .where('t.token_hash', '=', tokenHash)
        .where('t.revoked_at', 'is', null)
        .executeTakeFirst() as Promise<ScimTokenAuthRow | undefined>;
    },
    async insertToken(row: Insertable<ScimTokensTable>): Promise<void> {
      await k.insertInto('scim_tokens').values(row).execute();
    },
    /** Revokes the company's live token: how many were revoked (0 or 1). */
    async revokeTokens(companyId: string, now: number): Promise<number> {
      const r = await k
        .updateTable('scim_tokens')
        .set({ revoked_at: now })
        .where('company_id', '=', companyId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async touchToken(id: string, now: number): Promise<void> {
      await k.updateTable('scim_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
    },

    // ---- settings
    findSettings(companyId: string): Promise<ScimSettingsRow | undefined> {
      return k.selectFrom('scim_settings').selectAll().where('company_id', '=', companyId).executeTakeFirst();
    },
    async saveSettings(row: ScimSettingsRow): Promise<void> {
      const { company_id: _id, ...rest } = row;
      await k
        .insertInto('scim_settings')
        .values(row)
        .onConflict((oc) => oc.column('company_id').doUpdateSet(rest))
        .execute();
    },

    // ---- users (the company's users of types 2 and 3)
    async countUsers(companyId: string, email?: string): Promise<number> {
      let q = k
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId);
      if (email !== undefined) q = q.where('email', '=', email.toLowerCase());
      return Number((await q.executeTakeFirstOrThrow()).n);
    },
    /** One page of the company's users, oldest first (SCIM paging needs a stable order). */
    listUsers(companyId: string, page: { offset: number; limit: number; email?: string }): Promise<ScimUserRow[]> {
      let q = users().where('u.company_id', '=', companyId);
      if (page.email !== undefined) q = q.where('u.email', '=', page.email.toLowerCase());
      return q.orderBy('u.created_at').orderBy('u.id').offset(page.offset).limit(page.limit).execute();
    },
    findUser(companyId: string, id: string): Promise<ScimUserRow | undefined> {
      return users().where('u.company_id', '=', companyId).where('u.id', '=', id).executeTakeFirst();
    },
    async saveUserExtras(row: {
      user_id: string;
      company_id: string;
      external_id: string | null;
      given_name: string | null;
      family_name: string | null;
      updated_at: number;
    }): Promise<void> {
      const { user_id: _id, ...rest } = row;
      await k
        .insertInto('scim_users')
        .values(row)
        .onConflict((oc) => oc.column('user_id').doUpdateSet(rest))
        .execute();
    },

    // ---- groups
    async countGroups(companyId: string, displayName?: string): Promise<number> {
      let q = k
        .selectFrom('scim_groups')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId);
      if (displayName !== undefined) q = q.where('display_name', '=', displayName);
      return Number((await q.executeTakeFirstOrThrow()).n);
    },
    listGroups(companyId: string, page: { offset: number; limit: number; displayName?: string }): Promise<ScimGroupRow[]> {
      let q = k.selectFrom('scim_groups').selectAll().where('company_id', '=', companyId);
      if (page.displayName !== undefined) q = q.where('display_name', '=', page.displayName);
      return q.orderBy('created_at').orderBy('id').offset(page.offset).limit(page.limit).execute();
    },
    findGroup(companyId: string, id: string): Promise<ScimGroupRow | undefined> {
      return k.selectFrom('scim_groups').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
    },
    findGroupByName(companyId: string, displayName: string): Promise<ScimGroupRow | undefined> {
      return k
        .selectFrom('scim_groups')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('display_name', '=', displayName)
        .executeTakeFirst();
    },
    async insertGroup(row: Insertable<ScimGroupsTable>): Promise<void> {
      await k.insertInto('scim_groups').values(row).execute();
    },
    async updateGroup(
      companyId: string,
      id: string,
      set: { display_name: string; external_id: string | null; updated_at: number },
    ): Promise<void> {
      await k.updateTable('scim_groups').set(set).where('company_id', '=', companyId).where('id', '=', id).execute();
    },
    async deleteGroup(companyId: string, id: string): Promise<number> {
      const r = await k.deleteFrom('scim_groups').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** The members of these groups, with their e-mail (a SCIM member's `display`). */
    async membersOf(groupIds: string[]): Promise<Array<{ group_id: string; user_id: string; email: string }>> {
      if (groupIds.length === 0) return [];
      return k
        .selectFrom('scim_group_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.group_id', 'm.user_id', 'u.email'])
        .where('m.group_id', 'in', groupIds)
        .orderBy('u.email')
        .execute();
    },
    async addMember(groupId: string, userId: string): Promise<void> {
      await k
        .insertInto('scim_group_members')
        .values({ group_id: groupId, user_id: userId })
        .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
        .execute();
    },
    async removeMember(groupId: string, userId: string): Promise<void> {
      await k.deleteFrom('scim_group_members').where('group_id', '=', groupId).where('user_id', '=', userId).execute();
    },
    /** Members of the company's groups with these names. */
    async memberIdsOfGroupNames(companyId: string, names: string[]): Promise<string[]> {
      if (names.length === 0) return [];
      const rows = await k
        .selectFrom('scim_group_members as m')
        .innerJoin('scim_groups as g', 'g.id', 'm.group_id')
        .select('m.user_id')
        .where('g.company_id', '=', companyId)
        .where('g.display_name', 'in', names)
        .execute();
      return rows.map((r) => r.user_id);
    },
    /** Names of the company's groups a user is a member of. */
    async groupNamesOf(userId: string): Promise<string[]> {
      const rows = await k
        .selectFrom('scim_group_members as m')
        .innerJoin('scim_groups as g', 'g.id', 'm.group_id')
        .select('g.display_name')
        .where('m.user_id', '=', userId)
        .execute();
      return rows.map((r) => r.display_name);
    },
  };
}
