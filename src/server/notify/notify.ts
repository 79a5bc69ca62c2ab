// The one entry point for notification drafts: whoever notices something (a monitor kind's
// warnings, the incidents domain) hands a draft to `notify`, inside the transaction that
// recorded what it is about, so a notification exists exactly when its cause is committed.
// Today a draft becomes one in-app notification per recipient; delivery (an outbox of e-mails
// and webhooks) is added behind this entry point, not at its callers.
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { notificationsRepo, type NotificationType } from '../db/repositories/notifications-repo.ts';
import type { NotificationsTable } from '../db/schema/identity.ts';
import type { DbScope } from '../db/scope.ts';

export interface NotificationDraft {
  type: NotificationType;
  severity: 'critical' | 'high' | 'medium' | 'low' | 'info';
  title: string;
  message: string;
  details: string | null;
  metadata: Record<string, unknown>;
  /** A console route that exists for every role that gets the notification: the monitors
   *  screen, told which monitor or incident to open (its detail views read the query). */
  actionUrl: string;
  /** Same key for the same event: creating it twice (a retry after a crash) is a no-op */
  dedupeKey: string;
}

/** Sends a company's draft to the users who want its type. */
export type Notify = (companyId: string, draft: NotificationDraft) => Promise<void>;

/** `notify` bound to one transaction; recipients are looked up once per company and type. */
export function notifyIn(tx: DbScope, now: number): Notify {
  const notifications = notificationsRepo(tx);
  const recipients = new Map<string, string[]>();
  return async (companyId, draft) => {
    const key = `${companyId}:${draft.type}`;
    let users = recipients.get(key);
    if (!users) {
      users = await notifications.recipients(companyId, draft.type);
      recipients.set(key, users);
    }
    await notifications.insertIdempotent(inAppRows(draft, companyId, users, now));
  };
}

function inAppRows(d: NotificationDraft, companyId: string, userIds: string[], now: number): Insertable<NotificationsTable>[] {
  return userIds.map((userId) => ({
    id: randomUUID(),
    company_id: companyId,
    user_id: userId,
    title: d.title.slice(0, 300),
    message: d.message,
    details: d.details,
    metadata: JSON.stringify(d.metadata),
    severity: d.severity,
    type: d.type,
    is_read: 0,
    action_url: d.actionUrl,
    dedupe_key: d.dedupeKey.slice(0, 200),
    created_at: now,
  }));
}
