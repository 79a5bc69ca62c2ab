// Incident templates: one handler per operationId of openapi/paths/incident-templates.yaml.
import type { HandlerMap } from '../handler-types.ts';
import * as templates from '../../domain/incidents/templates.ts';

export const incidentTemplatesHandlers = {
  listIncidentTemplates: async ({ ctx, query }) => templates.listTemplates(ctx, query ?? {}),
  createIncidentTemplate: async ({ ctx, body, reply }) => {
    const t = await templates.createTemplate(ctx, body);
    reply.code(201);
    return t;
  },
  getIncidentTemplate: async ({ ctx, params }) => templates.getTemplate(ctx, params.id),
  updateIncidentTemplate: async ({ ctx, params, body }) => templates.updateTemplate(ctx, params.id, body),
  deleteIncidentTemplate: async ({ ctx, params, reply }) => {
    await templates.deleteTemplate(ctx, params.id);
    return reply.code(204).send();
  },
} satisfies HandlerMap;
