// SQL for alert channels: always filtered by the owning company (null scope: super admins, every company).
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { AlertChannelsTable } from '../schema/alerts.ts';

export type AlertChannelRow = Selectable<AlertChannelsTable>;

export function alertChannelsRepo(db: DbScope) {
  const k = db.k;
  return {
    list(companyId: string | null): Promise<AlertChannelRow[]> {
      let q = k.selectFrom('alert_channels').selectAll();
      if (companyId) q = q.where('company_id', '=', companyId);
      return q.orderBy('created_at').orderBy('id').limit(1000).execute();
    },
    /** The enabled channels of a company, which the outbox matches each alert against. */
    enabledOf(companyId: string): Promise<AlertChannelRow[]> {
      return k.selectFrom('alert_channels').selectAll().where('company_id', '=', companyId).where('enabled', '=', true).execute();
    },
    find(id: string, companyId: string | null): Promise<AlertChannelRow | undefined> {
      let q = k.selectFrom('alert_channels').selectAll().where('id', '=', id);
      if (companyId) q = q.where('company_id', '=', companyId);
      return q.executeTakeFirst();
    },
    async insert(row: Insertable<AlertChannelsTable>): Promise<void> {
      await k.insertInto('alert_channels').values(row).execute();
    },
    async update(id: string, patch: Updateable<AlertChannelsTable>): Promise<void> {
      await k.updateTable('alert_channels').set(patch).where('id', '=', id).execute();
    },
    async delete(id: string): Promise<void> {
      await k.deleteFrom('alert_channels').where('id', '=', id).execute();
    },
  };
}
