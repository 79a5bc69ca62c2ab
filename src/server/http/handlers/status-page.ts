// Status page settings: the layout of the public page (one verb each way).
import type { HandlerMap } from '../handler-types.ts';
import { getStatusPageSettings, saveStatusPageSettings } from '../../domain/status-page/settings.ts';

// Optional query objects type as never in the handler map (see getMonitorSummary): read them as given.
const tenantOf = (query: unknown) => (query as { tenant?: string }).tenant;

export const statusPageHandlers = {
  getStatusPageSettings: async ({ ctx, query }) => getStatusPageSettings(ctx, tenantOf(query)),
  saveStatusPageSettings: async ({ ctx, query, body }) => saveStatusPageSettings(ctx, tenantOf(query), body),
} satisfies HandlerMap;
