import type { HandlerMap } from '../handler-types.ts';
import * as incidents from '../../domain/incidents/service.ts';
import { acknowledgeIncident } from '../../domain/incidents/acknowledge.ts';

export const incidentsHandlers = {
  getRecentIncidents: async ({ ctx, query }) => incidents.recentIncidents(ctx, query),
  listIncidents: async ({ ctx, query }) => incidents.listIncidents(ctx, query),
  createIncident: async ({ ctx, body, reply }) => {
    const i = await incidents.createIncident(ctx, body);
    reply.code(201);
    return i;
  },
  getIncident: async ({ ctx, params }) => incidents.getIncident(ctx, params.id),
  editIncident: async ({ ctx, params, body }) => incidents.editIncident(ctx, params.id, body),
  addIncidentUpdate: async ({ ctx, params, body, reply }) => {
    const i = await incidents.addIncidentUpdate(ctx, params.id, body);
    reply.code(201);
    return i;
  },
  acknowledgeIncident: async ({ ctx, params }) => acknowledgeIncident(ctx, params.id),
} satisfies HandlerMap;
