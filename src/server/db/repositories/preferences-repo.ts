// SQL for notification preferences. A user without a row has the spec's defaults.
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { NotificationPreferencesTable } from '../schema/identity.ts';

export type PreferencesRow = Selectable<NotificationPreferencesTable>;
export type PreferenceFlags = Omit<PreferencesRow, 'user_id' | 'updated_at'>;

export const DEFAULT_PREFERENCES: PreferenceFlags = {
  email_enabled: true,
  sms_enabled: false,
  webhook_enabled: false,
  monitor_incidents: true,
  ssl_warnings: true,
  dns_warnings: true,
  security_alerts: true,
  system_notifications: true,
};

export function preferencesRepo(db: DbScope) {
  const k = db.k;
  return {
    async get(userId: string): Promise<PreferenceFlags> {
      const row = await k.selectFrom('notification_preferences').selectAll().where('user_id', '=', userId).executeTakeFirst();
      if (!row) return { ...DEFAULT_PREFERENCES };
      const { user_id: _u, updated_at: _t, ...flags } = row;
      return flags;
    },
    async put(userId: string, flags: PreferenceFlags, now: number): Promise<void> {
      await k
        .insertInto('notification_preferences')
        .values({ user_id: userId, ...flags, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...flags, updated_at: now }))
        .execute();
    },
  };
}
