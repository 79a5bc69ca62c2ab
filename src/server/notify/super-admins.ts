// Notices about the platform itself (the checker canary): in-app notifications for the super
// admins, who belong to no company, so no company channel or outbox delivery is involved. Like
// notify(), called inside the transaction that records the cause.
import { notificationsRepo } from '../db/repositories/notifications-repo.ts';
import type { DbScope } from '../db/scope.ts';
import type { NotificationDraft } from './draft.ts';
import { inAppRows } from './notify.ts';

export async function notifySuperAdmins(tx: DbScope, now: number, draft: NotificationDraft): Promise<void> {
  const repo = notificationsRepo(tx);
  const users = await repo.superAdminRecipients(draft.type);
  await repo.insertIdempotent(inAppRows(draft, null, users, now));
}
