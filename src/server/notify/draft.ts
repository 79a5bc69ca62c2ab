// What whoever notices something hands to `notify` (notify.ts): one event, for the in-app
// notifications of the users who want its type and for the company's alert channels.
import type { NotificationType } from '../db/repositories/notifications-repo.ts';

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
  /** Who gets it in the console: every user who wants its type (default), or only the company's admins */
  audience?: 'all' | 'admins';
  /** Same key for the same event: creating it twice (a retry after a crash) is a no-op */
  dedupeKey: string;
}
