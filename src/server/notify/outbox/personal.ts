// Personal delivery: what reaches a user directly, decided by their notification preferences.
// A user who wants the category (monitor_incidents, ssl_warnings, …) gets an e-mail at their
// address when email_enabled, and an SMS at their phone when sms_enabled and they gave one (sent
// through the operator's Twilio account, TWILIO_*), and a signed webhook to the URL they gave
// when webhook_enabled. These go through the same outbox as channel
// deliveries (retries, receipts), as rows with a user and a target instead of a channel.
// `system` notifications stay in the console (a failed delivery reported by mail could loop).
// Sending them is personal-send.ts.
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { PREFERENCE_OF_TYPE, type NotificationType } from '../../db/repositories/notifications-repo.ts';
import { personalContactsRepo, type PersonalContact } from '../../db/repositories/personal-contacts-repo.ts';
import { personalDeliveriesRepo } from '../../db/repositories/personal-deliveries-repo.ts';
import type { AlertDeliveriesTable, PersonalTarget } from '../../db/schema/alerts.ts';
import type { DbScope } from '../../db/scope.ts';
import type { NotificationDraft } from '../draft.ts';
import { alertEventOf } from './alert-event.ts';
import { payloadOf } from './enqueue.ts';
import { RETRY_WINDOW_MS, type AlertPayload } from './payload.ts';
import { deliveriesWritten } from './wake.ts';

/**
 * Writes the personal deliveries of one draft for the users who get it in the console;
 * `contacts` caches their switches per recipient list (many drafts in one transaction share it).
 */
export async function enqueuePersonalAlerts(
  tx: DbScope,
  contacts: Map<string, PersonalContact[]>,
  companyId: string,
  draft: NotificationDraft,
  userIds: string[],
  now: number,
): Promise<void> {
  const event = alertEventOf(draft);
  if (!event || userIds.length === 0) return;
  const key = `${companyId}:${draft.type}:${userIds.join(',')}`;
  let mine = contacts.get(key);
  if (!mine) contacts.set(key, (mine = await contactsFor(tx, companyId, userIds, draft.type)));
  const rows = await personalRows(mine, companyId, draft.dedupeKey, () => payloadOf(tx, companyId, draft, event, now), now);
  await personalDeliveriesRepo(tx).insertIdempotent(rows);
  deliveriesWritten(tx);
}

/** The contacts among `userIds` who want the category of `type`. */
export function contactsFor(
  tx: DbScope,
  companyId: string,
  userIds: readonly string[],
  type: NotificationType,
): Promise<PersonalContact[]> {
  return personalContactsRepo(tx).of(companyId, userIds, PREFERENCE_OF_TYPE[type]);
}

/** The rows for these contacts by their switches; the payload is built only when someone gets it. */
export async function personalRows(
  contacts: readonly PersonalContact[],
  companyId: string,
  dedupeKey: string,
  payload: () => Promise<AlertPayload>,
  now: number,
): Promise<Insertable<AlertDeliveriesTable>[]> {
  const wanted = contacts.flatMap((c) => [
    ...(c.emailEnabled ? [{ userId: c.id, target: 'email' as const }] : []),
    ...(c.smsEnabled && c.phone ? [{ userId: c.id, target: 'sms' as const }] : []),
    ...(c.webhookEnabled && c.webhookUrl ? [{ userId: c.id, target: 'webhook' as const }] : []),
  ]);
  if (wanted.length === 0) return [];
  const p = await payload();
  return wanted.map((w) => personalDelivery(companyId, w.userId, w.target, dedupeKey, p, now));
}

function personalDelivery(
  companyId: string,
  userId: string,
  target: PersonalTarget,
  dedupeKey: string,
  payload: AlertPayload,
  now: number,
): Insertable<AlertDeliveriesTable> {
  return {
    id: `msg_${randomUUID().replace(/-/g, '')}`,
    company_id: companyId,
    channel_id: null,
    user_id: userId,
    target,
    event: payload.event,
    dedupe_key: dedupeKey.slice(0, 200),
    payload: JSON.stringify(payload),
    state: 'pending',
    attempts: 0,
    next_attempt_at: now,
    retry_until: now + RETRY_WINDOW_MS,
    lease_holder: null,
    lease_expires_at: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  };
}
