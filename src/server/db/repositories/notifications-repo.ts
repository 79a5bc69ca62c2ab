// SQL for in-app notifications: always filtered by the owning user. Creation is idempotent
// through the unique (user_id, dedupe_key) index.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { NotificationsTable } from '../schema/identity.ts';

export type NotificationRow = Selectable<NotificationsTable>;

/** The column of notification_preferences that gates each notification type. */
export const PREFERENCE_OF_TYPE = {
  monitor_incident: 'monitor_incidents',
  ssl_warning: 'ssl_warnings',
  dns_warning: 'dns_warnings',
  security_report: 'security_alerts',
  system: 'system_notifications',
  // Anomalies (issue 33) are about the monitors' health, so who wants incident news gets them.
  anomaly: 'monitor_incidents',
} as const;
export type NotificationType = keyof typeof PREFERENCE_OF_TYPE;

export function notificationsRepo(db: DbScope) {
  const k = db.k;
  return {
    list(userId: string, f: { isRead?: boolean; severity?: string; type?: string; limit: number }): Promise<NotificationRow[]> {
      let q = k.selectFrom('notifications').selectAll().where('user_id', '=', userId);
      if (f.isRead !== undefined) q = q.where('is_read', '=', f.isRead);
      if (f.severity) q = q.where('severity', '=', f.severity);
      if (f.type) q = q.where('type', '=', f.type);
      return q.orderBy('created_at', 'desc').orderBy('id').limit(f.limit).execute();
    },
    async counts(userId: string): Promise<{ unread: number; read: number }> {
      const rows = await k
        .selectFrom('notifications')
        .select((eb) => ['is_read', eb.fn.countAll<number>().as('n')])
        .where('user_id', '=', userId)
        .groupBy('is_read')
        .execute();
      const n = (read: boolean) => Number(rows.find((r) => r.is_read === read)?.n ?? 0);
      return { unread: n(false), read: n(true) };
    },
    async markRead(userId: string, id: string | null): Promise<number> {
      let q = k.updateTable('notifications').set({ is_read: true }).where('user_id', '=', userId);
      if (id) q = q.where('id', '=', id);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async delete(userId: string, id: string): Promise<number> {
      const r = await k.deleteFrom('notifications').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async deleteRead(userId: string): Promise<number> {
      const r = await k.deleteFrom('notifications').where('user_id', '=', userId).where('is_read', '=', true).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    exists(userId: string, id: string): Promise<{ id: string } | undefined> {
      return k.selectFrom('notifications').select('id').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    },
    /** Active users (or only admins) of a company who want this type of notification (no row = defaults: yes). */
    async recipients(companyId: string, type: NotificationType, adminsOnly = false): Promise<string[]> {
      const col = PREFERENCE_OF_TYPE[type];
      let q = k
        .selectFrom('users')
        .leftJoin('notification_preferences', 'notification_preferences.user_id', 'users.id')
        .select('users.id')
        .where('users.company_id', '=', companyId)
        .where('users.is_active', '=', true)
        .where(sql<boolean>`coalesce(notification_preferences.${sql.ref(col)}, 1) = 1`);
      if (adminsOnly) q = q.where('users.user_type', '=', 2);
      const rows = await q.execute();
      return rows.map((r) => r.id);
    },
    /** Active super admins (no company) who want this type of notification: the platform's own notices. */
    async superAdminRecipients(type: NotificationType): Promise<string[]> {
      const col = PREFERENCE_OF_TYPE[type];
      const rows = await k
        .selectFrom('users')
        .leftJoin('notification_preferences', 'notification_preferences.user_id', 'users.id')
        .select('users.id')
        .where('users.user_type', '=', 1)
        .where('users.is_active', '=', true)
        .where(sql<boolean>`coalesce(notification_preferences.${sql.ref(col)}, 1) = 1`)
        .execute();
      return rows.map((r) => r.id);
    },
    async insertIdempotent(rows: Insertable<NotificationsTable>[]): Promise<number> {
      if (rows.length === 0) return 0;
      const r = await k
        .insertInto('notifications')
        .values(rows)
        .onConflict((oc) => oc.columns(['user_id', 'dedupe_key']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n);
    },
  };
}
