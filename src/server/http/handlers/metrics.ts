// The metrics and trace search screens: bucketed RED series, their CSV export, and the paged
// trace search.
import type { HandlerMap } from '../handler-types.ts';
import { exportMetrics, getMetricSeries } from '../../domain/telemetry/metrics.ts';
import { listTraces } from '../../domain/telemetry/traces.ts';

export const metricsHandlers = {
  getMetricSeries: async ({ ctx, query }) => getMetricSeries(ctx, query),
  exportMetrics: async ({ ctx, query, reply }) => {
    const csv = await exportMetrics(ctx, query);
    reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="metrics.csv"');
    return csv;
  },
  listTraces: async ({ ctx, query }) => listTraces(ctx, query),
} satisfies HandlerMap;
