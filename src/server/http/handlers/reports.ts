// SLA reports and their schedules: one handler per operationId of openapi/paths/reports.yaml.
import type { HandlerMap } from '../handler-types.ts';
import { getSlaReport } from '../../domain/reports/sla.ts';
import * as schedules from '../../domain/reports/schedules.ts';

export const reportsHandlers = {
  getSlaReport: async ({ ctx, query, reply }) => {
    const answer = await getSlaReport(ctx, query);
    if (answer.format === 'json') return answer.report;
    reply.type(answer.contentType).header('content-disposition', `attachment; filename="${answer.fileName}"`);
    return answer.body;
  },
  listReportSchedules: async ({ ctx, query }) => schedules.listReportSchedules(ctx, query),
  createReportSchedule: async ({ ctx, body, reply }) => {
    const s = await schedules.createReportSchedule(ctx, body);
    reply.code(201);
    return s;
  },
  getReportSchedule: async ({ ctx, params }) => schedules.getReportSchedule(ctx, params.id),
  updateReportSchedule: async ({ ctx, params, body }) => schedules.updateReportSchedule(ctx, params.id, body),
  deleteReportSchedule: async ({ ctx, params, reply }) => {
    await schedules.deleteReportSchedule(ctx, params.id);
    return reply.code(204).send();
  },
} satisfies HandlerMap;
