// Writes audit events. Server-side events take who and where from the session (the Ctx);
// nothing a client sends can change them. Each write goes through the scope the caller passes:
// the transaction of the change it records, so the change and its row commit or fail together.
import type { AuditEventName } from '../../../lib/audit-events.ts';
import type { Ctx, Services } from '../context.ts';
import { newId } from '../ids.ts';
import { auditRepo } from '../../db/repositories/audit-repo.ts';
import type { DbScope } from '../../db/scope.ts';

export const MAX_DETAILS_CHARS = 8192;

export interface AuditEntry {
  event: AuditEventName;
  details?: Record<string, unknown> | null;
  userId?: string | null;
  userRole?: string | null;
  tenantId?: string | null;
  sessionId?: string | null;
  userAgent?: string | null;
  ip?: string | null;
  source: 'client' | 'server';
  timestamp?: number;
}

function boundedDetails(details: Record<string, unknown> | null | undefined): string | null {
  if (!details) return null;
  const text = JSON.stringify(details);
  return text.length <= MAX_DETAILS_CHARS ? text : JSON.stringify({ truncated: true, preview: text.slice(0, MAX_DETAILS_CHARS - 100) });
}

export async function recordAudit(db: DbScope, services: Services, e: AuditEntry): Promise<void> {
  await auditRepo(db).insert({
    id: newId(),
    event: e.event,
    details: boundedDetails(e.details),
    timestamp: e.timestamp ?? services.now(),
    user_id: e.userId ?? null,
    user_role: e.userRole ?? null,
    tenant_id: e.tenantId ?? null,
    session_id: e.sessionId ?? null,
    user_agent: e.userAgent?.slice(0, 512) ?? null,
    ip: e.ip?.slice(0, 64) ?? null,
    source: e.source,
  });
}

/**
 * A server-side event by the signed-in actor of ctx (or by `who`, for logins and signups).
 * `tenantId` names the company the event is about when that is not the actor's own (a super
 * admin changing a company), so the log filters by the company concerned.
 */
export function auditFromCtx(
  db: DbScope,
  ctx: Ctx,
  event: AuditEventName,
  details?: Record<string, unknown>,
  who?: { userId: string; role: string; tenantId: string | null; sessionId: string | null },
  tenantId?: string | null,
): Promise<void> {
  const a = ctx.actor;
  return recordAudit(db, ctx.services, {
    event,
    details: details ?? null,
    userId: who?.userId ?? a?.userId ?? null,
    userRole: who?.role ?? a?.role ?? null,
    tenantId: tenantId !== undefined ? tenantId : who ? who.tenantId : (a?.companyId ?? null),
    sessionId: who ? who.sessionId : (a?.sessionId ?? null),
    userAgent: ctx.userAgent,
    ip: ctx.ip,
    source: 'server',
  });
}
