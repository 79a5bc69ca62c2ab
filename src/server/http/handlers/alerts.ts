// Alert channels and delivery receipts: one handler per operationId of openapi/paths/alerts.yaml.
import type { HandlerMap } from '../handler-types.ts';
import * as channels from '../../domain/alerts/channels.ts';
import * as deliveries from '../../domain/alerts/deliveries.ts';
import * as escalation from '../../domain/alerts/escalation.ts';

export const alertsHandlers = {
  listAlertChannels: async ({ ctx, query }) => channels.listChannels(ctx, query),
  createAlertChannel: async ({ ctx, body, reply }) => {
    const c = await channels.createChannel(ctx, body);
    reply.code(201);
    return c;
  },
  getAlertChannel: async ({ ctx, params }) => channels.getChannel(ctx, params.id),
  updateAlertChannel: async ({ ctx, params, body }) => channels.updateChannel(ctx, params.id, body),
  deleteAlertChannel: async ({ ctx, params, reply }) => {
    await channels.deleteChannel(ctx, params.id);
    return reply.code(204).send();
  },
  rotateAlertChannelSecret: async ({ ctx, params }) => channels.rotateSecret(ctx, params.id),
  testAlertChannel: async ({ ctx, params, reply }) => {
    const t = await channels.testChannel(ctx, params.id);
    reply.code(202);
    return t;
  },
  listAlertDeliveries: async ({ ctx, query }) => deliveries.listDeliveries(ctx, query),
  retryAlertDelivery: async ({ ctx, params }) => deliveries.retryDelivery(ctx, params.id),
  getEscalationPolicy: async ({ ctx, query }) => escalation.getEscalationPolicy(ctx, query),
  putEscalationPolicy: async ({ ctx, body }) => escalation.putEscalationPolicy(ctx, body),
} satisfies HandlerMap;
