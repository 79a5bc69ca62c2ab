// Client audit events (spec section 7, POST /api/v1/audit): fire-and-forget, failures ignored.
// The server takes actor, role and tenant from the session; what we send is context.
import type { components } from '../../../api/schema.d.ts';
import { api } from '../api.ts';

/** The events a browser reports; sign-in, sign-out and every change are recorded by the server. */
export type AuditEventName = components['schemas']['ClientAuditEventName'];

const SESSION_KEY = 'sw_audit_session';

/** One id per browser session, so the trail can group a session's events. */
export function auditSessionId(): string {
  try {
    let id = sessionStorage.getItem(SESSION_KEY);
    if (!id) {
      id = crypto.randomUUID();
      sessionStorage.setItem(SESSION_KEY, id);
    }
    return id;
  } catch {
    return 'no-storage';
  }
}

export function clearAuditSession(): void {
  try {
    sessionStorage.removeItem(SESSION_KEY);
  } catch {
    /* storage unavailable */
  }
}

export function logAudit(
  event: AuditEventName,
  details: Record<string, unknown>,
  who: { userId?: string | null; userRole?: string | null; tenantId?: string | null } = {},
): Promise<void> {
  return api
    .POST('/api/v1/audit', {
      body: {
        event,
        details: details as Record<string, never>,
        timestamp: new Date().toISOString(),
        userId: who.userId ?? null,
        userRole: who.userRole ?? null,
        tenantId: who.tenantId ?? null,
        sessionId: auditSessionId(),
        userAgent: navigator.userAgent.slice(0, 512),
      },
    })
    .then(
      () => undefined,
      () => undefined,
    );
}
