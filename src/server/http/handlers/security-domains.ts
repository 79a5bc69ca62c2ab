// Domains and DNS: one handler per operationId of openapi/paths/security-domains.yaml.
import type { HandlerMap } from '../handler-types.ts';
import * as domains from '../../domain/security/domain-checks.ts';

export const securityDomainsHandlers = {
  listDomainChecks: async ({ ctx, query }) => domains.listDomainChecks(ctx, query),
  getDomainCheck: async ({ ctx, params }) => domains.getDomainCheck(ctx, params.id),
  putDomainCheckSettings: async ({ ctx, params, body }) => domains.putDomainSettings(ctx, params.id, body),
  checkDomainNow: async ({ ctx, params }) => domains.checkDomainNow(ctx, params.id),
} satisfies HandlerMap;
