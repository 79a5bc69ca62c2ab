// The audit calls: client events (who, role, tenant and session come from the session, never
// from the body; rate-limited; bounded) and the super admins' audit log with filters and paging.
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { toIso } from '../ids.ts';
import { requireActor, requireSuperAdmin } from '../authz.ts';
import type { AuditEventName } from '../../../lib/audit-events.ts';
import { auditRepo, type AuditRow } from '../../db/repositories/audit-repo.ts';
import { limiters, tooManyAttempts } from '../auth/throttle.ts';
import { MAX_DETAILS_CHARS, recordAudit } from './record.ts';

export interface ClientAuditInput {
  event: AuditEventName;
  details?: Record<string, unknown>;
  timestamp?: string;
  userId?: string | null;
  userRole?: string | null;
  tenantId?: string | null;
  sessionId?: string | null;
  userAgent?: string | null;
}

export async function recordClientEvent(ctx: Ctx, input: ClientAuditInput): Promise<void> {
  const actor = requireActor(ctx);
  const now = ctx.services.now();
  const lim = limiters(ctx.services).audit;
  const wait = lim.retryAfter(actor.sessionId, now);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many audit events.');
  lim.hit(actor.sessionId, now);
  const details: Record<string, unknown> = { ...(input.details ?? {}) };
  if (JSON.stringify(details).length > MAX_DETAILS_CHARS) {
    throw new DomainError('validation', `Audit details must be at most ${MAX_DETAILS_CHARS} characters of JSON.`, { fields: { details: 'too large' } });
  }
  const clientTime = input.timestamp ? Date.parse(input.timestamp) : NaN;
  if (Number.isFinite(clientTime)) details.client_timestamp = new Date(clientTime).toISOString();
  await recordAudit(ctx.services, {
    event: input.event,
    details,
    timestamp: now,
    userId: actor.userId,
    userRole: actor.role,
    tenantId: actor.companyId,
    sessionId: actor.sessionId,
    userAgent: ctx.userAgent,
    ip: ctx.ip,
    source: 'client',
  });
}

export interface AuditEventView {
  id: string;
  event: string;
  details: Record<string, unknown> | null;
  timestamp: string;
  userId: string | null;
  userRole: string | null;
  tenantId: string | null;
  sessionId: string | null;
  userAgent: string | null;
  source: 'client' | 'server';
}

function toView(r: AuditRow): AuditEventView {
  let details: Record<string, unknown> | null = null;
  if (r.details) {
    try {
      details = JSON.parse(r.details) as Record<string, unknown>;
    } catch {
      details = { raw: r.details };
    }
  }
  return {
    id: r.id, event: r.event, details, timestamp: toIso(r.timestamp), userId: r.user_id, userRole: r.user_role,
    tenantId: r.tenant_id, sessionId: r.session_id, userAgent: r.user_agent, source: r.source === 'client' ? 'client' : 'server',
  };
}

export interface AuditQuery {
  event?: string;
  tenant_id?: string;
  user_id?: string;
  from?: string;
  to?: string;
  limit?: number;
  offset?: number;
}

export async function listAuditEvents(ctx: Ctx, q: AuditQuery): Promise<{ items: AuditEventView[]; total: number; limit: number; offset: number }> {
  requireSuperAdmin(ctx);
  const from = q.from ? Date.parse(q.from) : undefined;
  const to = q.to ? Date.parse(q.to) : undefined;
  if ((from !== undefined && Number.isNaN(from)) || (to !== undefined && Number.isNaN(to))) throw new DomainError('validation', 'from and to must be ISO 8601 date-times.');
  if (from !== undefined && to !== undefined && from > to) throw new DomainError('validation', "'from' must not be after 'to'.");
  const filter = { event: q.event, tenantId: q.tenant_id, userId: q.user_id, from, to };
  const limit = q.limit ?? 50;
  const offset = q.offset ?? 0;
  const repo = auditRepo(ctx.services.db);
  const [rows, total] = await Promise.all([repo.list(filter, { limit, offset }), repo.count(filter)]);
  return { items: rows.map(toView), total, limit, offset };
}
