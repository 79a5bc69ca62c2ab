// Status page settings: the layout of the public page (one verb each way), who may read it, and
// its share links.
import type { HandlerMap } from '../handler-types.ts';
import { getStatusPageSettings, saveStatusPageSettings } from '../../domain/status-page/settings.ts';
import { createShareLink, listShareLinks, revokeShareLink, savePageAccess } from '../../domain/status-page/access-settings.ts';

// Optional query objects type as never in the handler map (see getMonitorSummary): read them as given.
const tenantOf = (query: unknown) => (query as { tenant?: string }).tenant;

export const statusPageHandlers = {
  getStatusPageSettings: async ({ ctx, query }) => getStatusPageSettings(ctx, tenantOf(query)),
  saveStatusPageSettings: async ({ ctx, query, body }) => saveStatusPageSettings(ctx, tenantOf(query), body),
  savePageAccess: async ({ ctx, query, body }) => savePageAccess(ctx, tenantOf(query), body),
  listShareLinks: async ({ ctx, query }) => listShareLinks(ctx, tenantOf(query)),
  createShareLink: async ({ ctx, query, body, reply }) => {
    reply.code(201);
    return createShareLink(ctx, tenantOf(query), body);
  },
  revokeShareLink: async ({ ctx, query, params }) => revokeShareLink(ctx, tenantOf(query), params.id),
} satisfies HandlerMap;
