import type { HandlerMap } from '../handler-types.ts';
import { listAuditEvents, recordClientEvent } from '../../domain/audit/audit.ts';

export const auditHandlers = {
  postAudit: async ({ ctx, body, reply }) => {
    await recordClientEvent(ctx, body);
    reply.code(202);
    return { ok: true };
  },
  listAuditEvents: async ({ ctx, query }) => listAuditEvents(ctx, query),
} satisfies HandlerMap;
