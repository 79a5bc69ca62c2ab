// What a delivery row stores and how long it is retried.
import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { AlertChannelRow } from '../../db/repositories/alert-channels-repo.ts';
import type { AlertDeliveriesTable } from '../../db/schema/alerts.ts';
import type { Alert } from '../channels/channel.ts';

/** The alert without what is added at send time (delivery id, company, links). */
export type AlertPayload = Omit<Alert, 'deliveryId' | 'company' | 'consoleUrl' | 'statusPageUrl' | 'acknowledgeUrl'>;

/** Retries stop this long after the delivery was written (or retried by hand). */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

export function newDelivery(
  channel: AlertChannelRow,
  dedupeKey: string,
  payload: AlertPayload,
  now: number,
): Insertable<AlertDeliveriesTable> {
  return {
    id: `msg_${randomUUID().replace(/-/g, '')}`,
    company_id: channel.company_id,
    channel_id: channel.id,
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
