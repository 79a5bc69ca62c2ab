import type { HandlerMap } from '../handler-types.ts';
import * as notifications from '../../domain/notifications/service.ts';

export const notificationsHandlers = {
  listNotifications: async ({ ctx, query }) => notifications.listNotifications(ctx, query),
  getNotificationCounts: async ({ ctx }) => notifications.notificationCounts(ctx),
  getNotificationPreferences: async ({ ctx }) => notifications.getPreferences(ctx),
  updateNotificationPreferences: async ({ ctx, body }) => notifications.putPreferences(ctx, body),
  markNotificationRead: async ({ ctx, params }) => {
    await notifications.markRead(ctx, params.id);
    return { ok: true };
  },
  markAllNotificationsRead: async ({ ctx }) => {
    const n = await notifications.markAllRead(ctx);
    return { ok: true, message: `${n} notification(s) marked read` };
  },
  deleteNotification: async ({ ctx, params }) => {
    await notifications.deleteNotification(ctx, params.id);
    return { ok: true };
  },
  deleteAllReadNotifications: async ({ ctx }) => {
    const n = await notifications.deleteAllRead(ctx);
    return { ok: true, message: `${n} notification(s) deleted` };
  },
} satisfies HandlerMap;
