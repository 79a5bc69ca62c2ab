// The audit calls: client events (who, role, tenant and session come from the session, never
// from the body; rate-limited; bounded) and the super admins' audit log with filters and paging.
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { toIso } from '../ids.ts';
import { requireActor, requireSuperAdmin } from '../authz.ts';
import { CLIENT_AUDIT_EVENTS, type ClientAuditEventName } from '../../../lib/audit-events.ts';
import { auditRepo, type AuditRow } from '../../db/repositories/audit-repo.ts';
import { tooManyAttempts } from '../auth/throttle.ts';
import { MAX_DETAILS_CHARS, recordAudit } from './record.ts';

export interface ClientAuditInput {
  event: ClientAuditEventName;
  details?: Record<string, unknown>;
  timestamp?: string;
  userId?: string | null;
  userRole?: string | null;
  tenantId?: string | null;
  sessionId?: string | null;
  userAgent?: string | null;
}

// C0 and C1 controls, DEL, line and paragraph separators, and the bidirectional overrides and
// isolates that make a log line read differently from what it holds.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function holdsControlChars(value: unknown): boolean {
  if (typeof value === 'string') return CONTROL_CHARS.test(value);
  if (Array.isArray(value)) return value.some(holdsControlChars);
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => CONTROL_CHARS.test(k) || holdsControlChars(v));
  return false;
}

export async function recordClientEvent(ctx: Ctx, input: ClientAuditInput): Promise<void> {
  const actor = requireActor(ctx);
  // The request schema already holds clients to their own names; this keeps the rule if the
  // service is called another way.
  if (!(CLIENT_AUDIT_EVENTS as readonly string[]).includes(input.event)) {
    throw new DomainError('validation', 'This audit event is recorded by the server only.', { fields: { event: 'server event' } });
  }
  if (holdsControlChars(input)) {
    throw new DomainError('validation', 'Audit events must not contain control characters.', { fields: { details: 'control characters' } });
  }
  const now = ctx.services.now();
  const lim = ctx.services.state.throttles.audit;
  const wait = lim.retryAfter(actor.sessionId, now);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many audit events.');
  lim.hit(actor.sessionId, now);
  const details: Record<string, unknown> = { ...(input.details ?? {}) };
  if (JSON.stringify(details).length > MAX_DETAILS_CHARS) {
    throw new DomainError('validation', `Audit details must be at most ${MAX_DETAILS_CHARS} characters of JSON.`, {
      fields: { details: 'too large' },
    });
  }
  const clientTime = input.timestamp ? Date.parse(input.timestamp) : NaN;
  if (Number.isFinite(clientTime)) details.client_timestamp = new Date(clientTime).toISOString();
  await recordAudit(ctx.services.db, ctx.services, {
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
    id: r.id,
    event: r.event,
    details,
    timestamp: toIso(r.timestamp),
    userId: r.user_id,
    userRole: r.user_role,
    tenantId: r.tenant_id,
    sessionId: r.session_id,
    userAgent: r.user_agent,
    source: r.source === 'client' ? 'client' : 'server',
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

export async function listAuditEvents(
  ctx: Ctx,
  q: AuditQuery,
): Promise<{ items: AuditEventView[]; total: number; limit: number; offset: number }> {
  requireSuperAdmin(ctx);
  const from = q.from ? Date.parse(q.from) : undefined;
  const to = q.to ? Date.parse(q.to) : undefined;
  if ((from !== undefined && Number.isNaN(from)) || (to !== undefined && Number.isNaN(to)))
    throw new DomainError('validation', 'from and to must be ISO 8601 date-times.');
  if (from !== undefined && to !== undefined && from > to) throw new DomainError('validation', "'from' must not be after 'to'.");
  const filter = { event: q.event, tenantId: q.tenant_id, userId: q.user_id, from, to };
  const limit = q.limit ?? 50;
  const offset = q.offset ?? 0;
  const repo = auditRepo(ctx.services.db);
  const [rows, total] = await Promise.all([repo.list(filter, { limit, offset }), repo.count(filter)]);
  return { items: rows.map(toView), total, limit, offset };
}
