// SQL for personal delivery: the address, phone and switches of a company's active users, for
// those who want the notification category (a user without a preferences row has the defaults:
// e-mail on, SMS off, every category on).
import { sql } from 'kysely';
import type { DbScope } from '../scope.ts';
import { asBoolean } from '../booleans.ts';
import type { PreferenceFlags } from './preferences-repo.ts';

export interface PersonalContact {
  id: string;
  email: string;
  phone: string | null;
  webhookUrl: string | null;
  emailEnabled: boolean;
  smsEnabled: boolean;
  webhookEnabled: boolean;
}

export type CategoryPreference = keyof Pick<
  PreferenceFlags,
  'monitor_incidents' | 'ssl_warnings' | 'dns_warnings' | 'security_alerts' | 'system_notifications'
>;

export function personalContactsRepo(db: DbScope) {
  const k = db.k;
  return {
    async of(companyId: string, userIds: readonly string[], category: CategoryPreference): Promise<PersonalContact[]> {
      if (userIds.length === 0) return [];
      const rows = await k
        .selectFrom('users')
        .leftJoin('notification_preferences as p', 'p.user_id', 'users.id')
        .select([
          'users.id',
          'users.email',
          'users.phone',
          'users.webhook_url',
          sql<number>`coalesce(p.email_enabled, 1)`.as('email_enabled'),
          sql<number>`coalesce(p.sms_enabled, 0)`.as('sms_enabled'),
          sql<number>`coalesce(p.webhook_enabled, 0)`.as('webhook_enabled'),
        ])
        .where('users.company_id', '=', companyId)
        .where('users.id', 'in', [...userIds])
        .where('users.is_active', '=', true)
        .where(sql<boolean>`coalesce(p.${sql.ref(category)}, 1) = 1`)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        email: r.email,
        phone: r.phone,
        webhookUrl: r.webhook_url,
        emailEnabled: asBoolean(r.email_enabled),
        smsEnabled: asBoolean(r.sms_enabled),
        webhookEnabled: asBoolean(r.webhook_enabled),
      }));
    },
    /** One user's address and phone at send time (they may have changed since the alert). */
    contact(
      userId: string,
    ): Promise<
      { email: string; phone: string | null; full_name: string; webhook_url: string | null; webhook_secret: string | null } | undefined
    > {
      return k
        .selectFrom('users')
        .select(['email', 'phone', 'full_name', 'webhook_url', 'webhook_secret'])
        .where('id', '=', userId)
        .where('is_active', '=', true)
        .executeTakeFirst();
    },
    /** The company's active users by name: whom an escalation step may alert. */
    people(companyId: string): Promise<Array<{ id: string; full_name: string }>> {
      return k
        .selectFrom('users')
        .select(['id', 'full_name'])
        .where('company_id', '=', companyId)
        .where('is_active', '=', true)
        .orderBy('full_name')
        .orderBy('id')
        .limit(1000)
        .execute();
    },
    async setWebhook(userId: string, url: string | null, secret: string | null, now: number): Promise<void> {
      await k.updateTable('users').set({ webhook_url: url, webhook_secret: secret, updated_at: now }).where('id', '=', userId).execute();
    },
    async setPhone(userId: string, phone: string | null, now: number): Promise<void> {
      await k.updateTable('users').set({ phone, updated_at: now }).where('id', '=', userId).execute();
    },
  };
}
