// What every way of subscribing shares (service.ts: e-mail and webhook; chat.ts; sms.ts): the
// new row, the refusals and the company's cap.
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { SlidingWindow } from '../auth/throttle.ts';
import type { SubscriberRow } from '../../db/repositories/subscribers-repo.ts';
import type { SubscriberKind } from '../../db/schema/public.ts';
import { newNonce } from './tokens.ts';

/** Pending and confirmed subscribers a company may have */
export const MAX_SUBSCRIBERS_PER_COMPANY = 10_000;

export function refuse(wait: number, what: string): void {
  if (wait > 0) throw new DomainError('rate_limited', `Too many subscription requests ${what}. Try again later.`, { retryAfter: wait });
}

export function limited(window: SlidingWindow, key: string, now: number, what: string): void {
  refuse(window.retryAfter(key, now), what);
}

export const invalid = (field: string, message: string) => new DomainError('validation', message, { fields: { [field]: message } });

export const full = () => new DomainError('limit_exceeded', 'This status page has reached its subscriber limit.');

export function newRow(companyId: string, kind: SubscriberKind, now: number, fields: Partial<SubscriberRow>): SubscriberRow {
  return {
    id: newId(),
    company_id: companyId,
    kind,
    email: null,
    webhook_url: null,
    secret: null,
    phone: null,
    component_ids: null,
    state: 'pending',
    confirm_token_hash: null,
    confirm_expires_at: null,
    confirm_attempts: 0,
    locale: null,
    unsubscribe_nonce: newNonce(),
    created_at: now,
    confirmed_at: null,
    updated_at: now,
    ...fields,
  };
}
