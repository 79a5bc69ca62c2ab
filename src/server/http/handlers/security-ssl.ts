// SSL/TLS monitoring: the company's TLS targets, one target, and analyse now.
import type { HandlerMap } from '../handler-types.ts';
import { checkSslTarget, getSslTarget, listSslTargets } from '../../domain/security/ssl.ts';

export const securitySslHandlers = {
  listSslTargets: async ({ ctx, query }) => listSslTargets(ctx, query),
  getSslTarget: async ({ ctx, params }) => getSslTarget(ctx, params.id),
  checkSslTarget: async ({ ctx, params }) => checkSslTarget(ctx, params.id),
} satisfies HandlerMap;
