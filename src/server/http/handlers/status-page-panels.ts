// The status page's security panel switch and its preview (issue 32).
import type { HandlerMap } from '../handler-types.ts';
import { getStatusPagePanels, saveStatusPagePanels } from '../../domain/status-page/panel-settings.ts';

// Optional query objects type as never in the handler map (see getMonitorSummary): read them as given.
const tenantOf = (query: unknown) => (query as { tenant?: string }).tenant;

export const statusPagePanelHandlers = {
  getStatusPagePanels: async ({ ctx, query }) => getStatusPagePanels(ctx, tenantOf(query)),
  saveStatusPagePanels: async ({ ctx, query, body }) => saveStatusPagePanels(ctx, tenantOf(query), body),
} satisfies HandlerMap;
