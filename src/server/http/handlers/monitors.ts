import type { HandlerMap } from '../handler-types.ts';
import * as monitors from '../../domain/monitors/service.ts';
import * as maintenance from '../../domain/monitors/maintenance.ts';
import { prepareTest } from '../../domain/monitors/test-now.ts';
import { streamTest } from '../test-stream.ts';
import { getResponseTimes } from '../../domain/monitors/response-times.ts';
import { getScreenshot } from '../../domain/monitors/screenshots.ts';

export const monitorsHandlers = {
  getMonitorSummary: async ({ ctx, query }) => monitors.getSummary(ctx, (query as { tenant?: string }).tenant),
  listMonitors: async ({ ctx, query, reply }) => {
    const page = await monitors.listMonitors(ctx, query);
    reply.header('x-total-count', page.total);
    return page.items;
  },
  testMonitor: async ({ ctx, body, query, req, reply }) => {
    const q = query as { monitor?: string; stream?: boolean };
    const run = await prepareTest(ctx, body, q.monitor);
    return q.stream ? (streamTest(run, req, reply) as never) : run();
  },
  createMonitor: async ({ ctx, body, reply }) => {
    const m = await monitors.createMonitor(ctx, body);
    reply.code(201);
    return m;
  },
  getMonitor: async ({ ctx, params }) => monitors.getMonitor(ctx, params.id),
  updateMonitor: async ({ ctx, params, body }) => monitors.updateMonitor(ctx, params.id, body),
  deleteMonitor: async ({ ctx, params }) => {
    await monitors.deleteMonitor(ctx, params.id);
    return { ok: true };
  },
  archiveMonitor: async ({ ctx, params }) => monitors.archiveMonitor(ctx, params.id),
  restoreMonitor: async ({ ctx, params }) => monitors.restoreMonitor(ctx, params.id),
  pauseMonitor: async ({ ctx, params }) => monitors.setPaused(ctx, params.id, true),
  resumeMonitor: async ({ ctx, params }) => monitors.setPaused(ctx, params.id, false),
  rotateMonitorPushToken: async ({ ctx, params }) => monitors.rotatePushToken(ctx, params.id),
  listMonitorChecks: async ({ ctx, params, query }) => monitors.listChecks(ctx, params.id, query),
  getMonitorUptime: async ({ ctx, params }) => monitors.getUptime(ctx, params.id),
  getMonitorScreenshot: async ({ ctx, params, reply }) => {
    const png = await getScreenshot(ctx, params.id, params.screenshotId);
    // A kept screenshot never changes; the company's own users alone may read it.
    reply.type('image/png').header('cache-control', 'private, max-age=86400, immutable');
    return png;
  },
  getMonitorResponseTimes: async ({ ctx, params, query }) => getResponseTimes(ctx, params.id, query),
  listMaintenanceWindows: async ({ ctx, query }) => maintenance.listMaintenance(ctx, query),
  createMaintenanceWindow: async ({ ctx, body, reply }) => {
    const w = await maintenance.createMaintenance(ctx, body);
    reply.code(201);
    return w;
  },
  editMaintenanceWindow: async ({ ctx, params, body }) => maintenance.editMaintenance(ctx, params.id, body),
  endMaintenanceWindow: async ({ ctx, params }) => maintenance.endMaintenance(ctx, params.id),
  cancelMaintenanceWindow: async ({ ctx, params }) => maintenance.cancelMaintenance(ctx, params.id),
  deleteMaintenanceWindow: async ({ ctx, params }) => {
    await maintenance.deleteMaintenance(ctx, params.id);
    return { ok: true };
  },
  pushHeartbeat: async ({ ctx, params }) => {
    await monitors.recordHeartbeat(ctx, params.token);
    return { ok: true };
  },
  pushHeartbeatPost: async ({ ctx, params }) => {
    await monitors.recordHeartbeat(ctx, params.token);
    return { ok: true };
  },
} satisfies HandlerMap;
