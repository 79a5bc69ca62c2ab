// Incoming alert sources and the receive routes (domain/incoming).
import type { HandlerMap } from '../handler-types.ts';
import { createSource, deleteSource, getSource, listSources, rotateSourceToken, updateSource } from '../../domain/incoming/sources.ts';
import { receiveIncoming } from '../../domain/incoming/receive.ts';
import { listIncidentAlerts } from '../../domain/incoming/alerts.ts';
import { bearerToken } from '../auth/resolve-actor.ts';

export const incomingAlertsHandlers = {
  listIncomingSources: async ({ ctx, query }) => listSources(ctx, query),
  createIncomingSource: async ({ ctx, body, reply }) => {
    const created = await createSource(ctx, body);
    reply.code(201);
    return created;
  },
  getIncomingSource: async ({ ctx, params }) => getSource(ctx, params.id),
  updateIncomingSource: async ({ ctx, params, body }) => updateSource(ctx, params.id, body),
  deleteIncomingSource: async ({ ctx, params }) => {
    await deleteSource(ctx, params.id);
    return { ok: true };
  },
  rotateIncomingSourceToken: async ({ ctx, params }) => rotateSourceToken(ctx, params.id),
  receiveAlertmanagerAlerts: async ({ ctx, req, body }) => receiveIncoming(ctx.services, 'alertmanager', bearerToken(req), body),
  receiveAlertmanagerAlertsWithToken: async ({ ctx, params, body }) => receiveIncoming(ctx.services, 'alertmanager', params.token, body),
  receiveGrafanaAlerts: async ({ ctx, req, body }) => receiveIncoming(ctx.services, 'grafana', bearerToken(req), body),
  receiveGrafanaAlertsWithToken: async ({ ctx, params, body }) => receiveIncoming(ctx.services, 'grafana', params.token, body),
  receiveGenericAlerts: async ({ ctx, req, body }) => receiveIncoming(ctx.services, 'generic', bearerToken(req), body),
  receiveGenericAlertsWithToken: async ({ ctx, params, body }) => receiveIncoming(ctx.services, 'generic', params.token, body),
  listIncidentIncomingAlerts: async ({ ctx, params }) => listIncidentAlerts(ctx, params.id),
} satisfies HandlerMap;
