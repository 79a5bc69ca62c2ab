// The signed-in user's own notifications and preferences. Every query is filtered by the user:
// another user's notification by id answers 404.
import { notificationsRepo, type NotificationRow } from '../../db/repositories/notifications-repo.ts';
import { preferencesRepo, type PreferenceFlags } from '../../db/repositories/preferences-repo.ts';
import { requireActor } from '../authz.ts';
import { personalAddresses, setPersonalAddresses, type PersonalAddresses } from './personal-addresses.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { toIso } from '../ids.ts';

type PrefsView = { [K in keyof PreferenceFlags]: boolean };

function present(n: NotificationRow) {
  let metadata: Record<string, unknown> | null = null;
  try {
    metadata = n.metadata ? (JSON.parse(n.metadata) as Record<string, unknown>) : null;
  } catch {
    metadata = null;
  }
  return {
    id: n.id,
    title: n.title,
    message: n.message,
    details: n.details,
    metadata,
    severity: n.severity,
    type: n.type,
    created_at: toIso(n.created_at),
    is_read: n.is_read,
    action_url: n.action_url,
  };
}

export async function listNotifications(ctx: Ctx, q: { is_read?: boolean; severity?: string; notification_type?: string; limit?: number }) {
  const actor = requireActor(ctx);
  const rows = await notificationsRepo(ctx.services.db).list(actor.userId, {
    isRead: q.is_read,
    severity: q.severity,
    type: q.notification_type,
    limit: q.limit ?? 200,
  });
  return rows.map(present);
}

/** Counts over all of the user's notifications: the page header shows them whatever the filter. */
export async function notificationCounts(ctx: Ctx): Promise<{ unread: number; read: number }> {
  const actor = requireActor(ctx);
  return notificationsRepo(ctx.services.db).counts(actor.userId);
}

const toView = (p: PreferenceFlags): PrefsView => ({ ...p });

type PrefsAnswer = PrefsView & PersonalAddresses & { webhook_secret?: string };

export async function getPreferences(ctx: Ctx): Promise<PrefsAnswer> {
  const actor = requireActor(ctx);
  return { ...toView(await preferencesRepo(ctx.services.db).get(actor.userId)), ...(await personalAddresses(ctx.services, actor.userId)) };
}

/** The switches, and where personal alerts go: `phone`, `webhook_url` (null removes either). */
export async function putPreferences(ctx: Ctx, input: Partial<PrefsView> & Partial<PersonalAddresses>): Promise<PrefsAnswer> {
  const actor = requireActor(ctx);
  const repo = preferencesRepo(ctx.services.db);
  const current = await repo.get(actor.userId);
  const next = { ...current };
  for (const key of Object.keys(current) as Array<keyof PreferenceFlags>) {
    if (typeof input[key] === 'boolean') next[key] = input[key];
  }
  // Addresses first: a refused URL leaves the switches as they were.
  const secret = await setPersonalAddresses(ctx.services, actor.userId, input);
  await repo.put(actor.userId, next, ctx.services.now());
  return { ...toView(next), ...(await personalAddresses(ctx.services, actor.userId)), ...secret };
}

export async function markRead(ctx: Ctx, id: string): Promise<void> {
  const actor = requireActor(ctx);
  if ((await notificationsRepo(ctx.services.db).markRead(actor.userId, id)) === 0) throw notFound('Notification');
}

export async function markAllRead(ctx: Ctx): Promise<number> {
  const actor = requireActor(ctx);
  return notificationsRepo(ctx.services.db).markRead(actor.userId, null);
}

export async function deleteNotification(ctx: Ctx, id: string): Promise<void> {
  const actor = requireActor(ctx);
  if ((await notificationsRepo(ctx.services.db).delete(actor.userId, id)) === 0) throw notFound('Notification');
}

export async function deleteAllRead(ctx: Ctx): Promise<number> {
  const actor = requireActor(ctx);
  return notificationsRepo(ctx.services.db).deleteRead(actor.userId);
}
