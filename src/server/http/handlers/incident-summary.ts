// Incident summaries by the language model: one handler per operationId of openapi/paths/incident-summary.yaml.
import type { HandlerMap } from '../handler-types.ts';
import * as summary from '../../domain/incidents/summary/service.ts';

export const incidentSummaryHandlers = {
  getIncidentSummary: async ({ ctx, params }) => summary.getIncidentSummary(ctx, params.id),
  requestIncidentSummary: async ({ ctx, params }) => summary.requestIncidentSummary(ctx, params.id),
  getIncidentSummarySettings: async ({ ctx, query }) => summary.getSummarySettings(ctx, query ?? {}),
  updateIncidentSummarySettings: async ({ ctx, query, body }) => summary.updateSummarySettings(ctx, body, query ?? {}),
} satisfies HandlerMap;
