import type { HandlerMap } from '../handler-types.ts';
import { getHealthFor } from '../../domain/system/health.ts';

export const systemHandlers = {
  getHealth: async ({ ctx, reply }) => {
    const health = await getHealthFor(ctx);
    if (health.status !== 'ok') reply.code(503);
    return health;
  },
} satisfies HandlerMap;
