import type { HandlerMap } from '../handler-types.ts';
import { getHealth } from '../../domain/system/health.ts';

export const systemHandlers = {
  getHealth: async ({ ctx, reply }) => {
    const health = await getHealth(ctx.services);
    if (health.status !== 'ok') reply.code(503);
    return health;
  },
} satisfies HandlerMap;
