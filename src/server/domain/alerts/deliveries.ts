// Delivery receipts: every delivery of the company with its attempts, and the Retry action.
import { alertDeliveriesRepo, type AlertDeliveryRow } from '../../db/repositories/alert-deliveries-repo.ts';
import type { DeliveryState, PersonalTarget } from '../../db/schema/alerts.ts';
import { RETRY_WINDOW_MS } from '../../notify/outbox/payload.ts';
import { deliveriesWritten } from '../../notify/outbox/wake.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { toIso } from '../ids.ts';

const PERSONAL_LABEL: Record<PersonalTarget, string> = { email: 'e-mail', sms: 'SMS', webhook: 'webhook' };

export async function listDeliveries(
  ctx: Ctx,
  q: { channel_id?: string; state?: DeliveryState; group?: string; limit?: number; offset?: number; tenant?: string },
) {
  requirePermission(ctx, 'view', 'settings', 'view alert deliveries');
  const repo = alertDeliveriesRepo(ctx.services.db);
  const rows = await repo.list(companyScope(ctx, q.tenant), {
    channelId: q.channel_id,
    state: q.state,
    group: q.group,
    limit: q.limit ?? 50,
    offset: q.offset ?? 0,
  });
  const attempts = await repo.attemptsOf(rows.map((r) => r.id));
  const carried = await repo.groupedCounts(rows.map((r) => r.id));
  return rows.map((r) => ({
    ...present(r),
    grouped_count: carried.get(r.id) ?? 0,
    // A personal delivery is named after its person and target; a scheduled report's mail as such.
    channel_name:
      r.channel_name ??
      (r.report_schedule_id ? 'Scheduled SLA report (e-mail)' : null) ??
      `Personal ${PERSONAL_LABEL[r.target ?? 'email']} to ${r.recipient_name ?? 'a removed user'}`,
    channel_type: r.channel_type ?? r.target ?? 'email',
    attempt_log: attempts
      .filter((a) => a.delivery_id === r.id)
      .map((a) => ({ at: toIso(a.at), status_code: a.status_code, latency_ms: a.latency_ms, error: a.error })),
  }));
}

function present(r: AlertDeliveryRow) {
  return {
    id: r.id,
    company_id: r.company_id,
    channel_id: r.channel_id,
    user_id: r.user_id,
    event: r.event,
    state: r.state,
    attempts: r.attempts,
    next_attempt_at: r.state === 'pending' || r.state === 'retrying' ? toIso(r.next_attempt_at) : null,
    last_error: r.last_error,
    grouped_into: r.grouped_into,
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
  };
}

/** Sends a failed (or still retrying) delivery again now, with a fresh 24 h window; same id. */
export async function retryDelivery(ctx: Ctx, id: string) {
  requirePermission(ctx, 'update', 'settings', 'retry alert deliveries');
  const repo = alertDeliveriesRepo(ctx.services.db);
  const d = await repo.find(id, companyScope(ctx, null));
  if (!d) throw notFound('Delivery');
  if (d.state === 'delivered') throw new DomainError('conflict', 'This alert was delivered; send a test to try the channel again');
  if (d.state === 'grouped') throw new DomainError('conflict', 'This alert went out in a grouped message; retry that delivery instead');
  const now = ctx.services.now();
  await repo.requeue(d.id, now, now + RETRY_WINDOW_MS);
  deliveriesWritten(ctx.services.db);
  return present({ ...d, state: 'pending', next_attempt_at: now, retry_until: now + RETRY_WINDOW_MS, updated_at: now });
}
