// Status-page subscribers: one handler per operationId of openapi/paths/subscribers.yaml.
import type { HandlerMap } from '../handler-types.ts';
import * as subscribers from '../../domain/subscribers/service.ts';

export const subscribersHandlers = {
  subscribeToStatusPage: async ({ ctx, params, body, reply, req }) => {
    const r = await subscribers.subscribe(ctx, params.subdomain, body, req.headers['accept-language']);
    reply.code(202).header('cache-control', 'no-store');
    if (r.kind === 'email') return { status: r.status };
    return { status: r.status, id: r.id, secret: r.secret, unsubscribe_url: r.unsubscribe_url };
  },
  listSubscribers: async ({ ctx, query }) => subscribers.listSubscribers(ctx, query),
  deleteSubscriber: async ({ ctx, params, reply }) => {
    await subscribers.deleteSubscriber(ctx, params.id);
    return reply.code(204).send();
  },
} satisfies HandlerMap;
