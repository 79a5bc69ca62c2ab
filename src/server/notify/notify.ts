// The one entry point for notification drafts: whoever notices something (a monitor kind's
// warnings, the incidents domain) hands a draft to `notify`, inside the transaction that
// recorded what it is about, so a notification exists exactly when its cause is committed.
// A draft becomes one in-app notification per recipient, and one delivery in the alerts outbox
// per enabled channel of the company whose filters take it (outbox/enqueue.ts), and the personal
// e-mail and SMS its recipients' preferences ask for (outbox/personal.ts); the delivery job
// sends those after the commit. A warning about the cause a monitor's incident is already about
// joins that incident's thread instead of reaching again whom the incident reached (related-signals.ts).
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { notificationsRepo } from '../db/repositories/notifications-repo.ts';
import type { NotificationsTable } from '../db/schema/identity.ts';
import type { DbScope } from '../db/scope.ts';
import type { AlertChannelRow } from '../db/repositories/alert-channels-repo.ts';
import type { PersonalContact } from '../db/repositories/personal-contacts-repo.ts';
import type { NotificationDraft } from './draft.ts';
import { enqueueAlerts } from './outbox/enqueue.ts';
import { enqueuePersonalAlerts } from './outbox/personal.ts';
import { adoptHeldSignals, channelTookIncident, relatedSignal, type TellingIncident } from './related-signals.ts';

export type { NotificationDraft } from './draft.ts';

/** Sends a company's draft to the users who want its type. */
export type Notify = (companyId: string, draft: NotificationDraft) => Promise<void>;

/** `notify` bound to one transaction; recipients are looked up once per company and type. */
export function notifyIn(tx: DbScope, now: number): Notify {
  const notifications = notificationsRepo(tx);
  const recipients = new Map<string, string[]>();
  const channels = new Map<string, AlertChannelRow[]>();
  const contacts = new Map<string, PersonalContact[]>();
  const usersOf = async (companyId: string, type: NotificationDraft['type'], audience: NotificationDraft['audience']) => {
    const key = `${companyId}:${type}:${audience ?? 'all'}`;
    let users = recipients.get(key);
    if (!users) {
      users = await notifications.recipients(companyId, type, audience === 'admins');
      recipients.set(key, users);
    }
    return users;
  };
  /** In-app, channels and personal delivery; `untold`: only those `incident`'s own notification did not reach. */
  const send = async (companyId: string, draft: NotificationDraft, untold?: TellingIncident) => {
    let users = await usersOf(companyId, draft.type, draft.audience);
    if (untold) {
      const told = new Set(await usersOf(companyId, 'monitor_incident', 'all'));
      users = users.filter((u) => !told.has(u));
    }
    await notifications.insertIdempotent(inAppRows(draft, companyId, users, now));
    await enqueueAlerts(tx, channels, companyId, draft, now, untold && ((c) => !channelTookIncident(c, untold)));
    await enqueuePersonalAlerts(tx, contacts, companyId, draft, users, now);
  };
  return async (companyId, draft) => {
    // One cause, one notification per person and channel: a warning about what the monitor's
    // incident already tells goes into its thread instead (related-signals.ts).
    const related = await relatedSignal(tx, companyId, draft, now);
    if (related.kind === 'merged') return;
    if (related.kind === 'first') return send(companyId, related.draft, related.incident);
    const adopted = await adoptHeldSignals(tx, companyId, draft, now);
    await send(companyId, draft);
    if (adopted.kind === 'first') await send(companyId, adopted.draft, adopted.incident);
  };
}

/** One in-app notification per user; company null for the platform's own notices to super admins. */
export function inAppRows(
  d: NotificationDraft,
  companyId: string | null,
  userIds: string[],
  now: number,
): Insertable<NotificationsTable>[] {
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
    is_read: false,
    action_url: d.actionUrl,
    dedupe_key: d.dedupeKey.slice(0, 200),
    created_at: now,
  }));
}
