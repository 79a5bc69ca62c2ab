// Custom domains of the status page: list, add, verify now, remove, and the TLS proxy's `ask`.
import type { HandlerMap } from '../handler-types.ts';
import * as domains from '../../domain/custom-domains/service.ts';
import { DomainError } from '../../domain/errors.ts';

// Optional query objects type as never in the handler map (see getMonitorSummary): read them as given.
const tenantOf = (query: unknown) => (query as { tenant?: string }).tenant;

export const customDomainHandlers = {
  listCustomDomains: async ({ ctx, query }) => domains.listCustomDomains(ctx, tenantOf(query)),
  addCustomDomain: async ({ ctx, query, body, reply }) => {
    const created = await domains.addCustomDomain(ctx, tenantOf(query), body);
    reply.code(201);
    return created;
  },
  verifyCustomDomain: async ({ ctx, query, params }) => domains.verifyCustomDomain(ctx, tenantOf(query), params.id),
  deleteCustomDomain: async ({ ctx, query, params, reply }) => {
    await domains.deleteCustomDomain(ctx, tenantOf(query), params.id);
    return reply.code(204).send();
  },
  askCustomDomain: async ({ ctx, query }) => {
    const { domain } = query as { domain: string };
    if (!(await domains.isServedCustomDomain(ctx.services, domain))) throw new DomainError('not_found', 'Not a verified custom domain');
    return { domain: domain.trim().toLowerCase().replace(/\.$/, '') };
  },
} satisfies HandlerMap;
