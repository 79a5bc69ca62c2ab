// On-call schedules, shifts, calendar feeds and incident pages: one handler per operationId of
// openapi/paths/schedules.yaml.
import * as calendar from '../../domain/oncall/calendar.ts';
import { listIncidentPages } from '../../domain/oncall/pages.ts';
import * as schedules from '../../domain/oncall/schedules.ts';
import type { HandlerMap } from '../handler-types.ts';

export const onCallHandlers = {
  listSchedules: async ({ ctx }) => schedules.listSchedules(ctx),
  createSchedule: async ({ ctx, body, reply }) => {
    const s = await schedules.createSchedule(ctx, body);
    reply.code(201);
    return s;
  },
  getSchedule: async ({ ctx, params }) => schedules.getSchedule(ctx, params.id),
  updateSchedule: async ({ ctx, params, body }) => schedules.updateSchedule(ctx, params.id, body),
  deleteSchedule: async ({ ctx, params, reply }) => {
    await schedules.deleteSchedule(ctx, params.id);
    return reply.code(204).send();
  },
  createScheduleOverride: async ({ ctx, params, body, reply }) => {
    const s = await schedules.createScheduleOverride(ctx, params.id, body);
    reply.code(201);
    return s;
  },
  deleteScheduleOverride: async ({ ctx, params, reply }) => {
    await schedules.deleteScheduleOverride(ctx, params.id, params.overrideId);
    return reply.code(204).send();
  },
  getScheduleOnCall: async ({ ctx, params, query }) => schedules.getScheduleOnCall(ctx, params.id, query),
  listScheduleShifts: async ({ ctx, params, query }) => schedules.listScheduleShifts(ctx, params.id, query),
  listMyShifts: async ({ ctx, query }) => schedules.listMyShifts(ctx, query),
  createScheduleCalendarFeed: async ({ ctx, params, reply }) => {
    const f = await calendar.createScheduleCalendarFeed(ctx, params.id);
    reply.code(201);
    return f;
  },
  revokeScheduleCalendarFeed: async ({ ctx, params, reply }) => {
    await calendar.revokeScheduleCalendarFeed(ctx, params.id);
    return reply.code(204).send();
  },
  createMyCalendarFeed: async ({ ctx, reply }) => {
    const f = await calendar.createMyCalendarFeed(ctx);
    reply.code(201);
    return f;
  },
  revokeMyCalendarFeed: async ({ ctx, reply }) => {
    await calendar.revokeMyCalendarFeed(ctx);
    return reply.code(204).send();
  },
  getCalendarFeed: async ({ ctx, params, reply }) => {
    const text = await calendar.calendarFeed(ctx.services, params.token);
    // private: a shared cache must not keep one person's calendar; the token is the credential.
    reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300');
    return text;
  },
  listIncidentPages: async ({ ctx, params }) => listIncidentPages(ctx, params.id),
} satisfies HandlerMap;
