// Anomaly watching: one handler per operationId of openapi/paths/anomalies.yaml.
import type { HandlerMap } from '../handler-types.ts';
import { getAnomalySettings, putAnomalySettings } from '../../domain/anomalies/settings.ts';
import { listAnomalies } from '../../domain/anomalies/episodes.ts';

export const anomaliesHandlers = {
  getAnomalySettings: async ({ ctx, query }) => getAnomalySettings(ctx, query ?? {}),
  putAnomalySettings: async ({ ctx, query, body }) => putAnomalySettings(ctx, body, query ?? {}),
  listAnomalies: async ({ ctx, query }) => listAnomalies(ctx, query ?? {}),
} satisfies HandlerMap;
