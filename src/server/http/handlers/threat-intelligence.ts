// Threat intelligence: the view of a company's reputation, feed matches, lookalikes and breaches.
import type { HandlerMap } from '../handler-types.ts';
import { getThreats } from '../../domain/security/threats.ts';

export const threatIntelligenceHandlers = {
  getThreats: async ({ ctx, query }) => getThreats(ctx, query),
} satisfies HandlerMap;
