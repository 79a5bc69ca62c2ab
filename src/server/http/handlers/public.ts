// Public status calls (no sign-in): the spec's public-status payload and the Statuspage v2
// documents of the company of the request's host. Each answer carries the snapshot's ETag,
// revalidates with If-None-Match (304) and may be cached by a CDN.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerMap } from '../handler-types.ts';
import { getPublicStatus, getStatuspageJson } from '../../domain/status-page/service.ts';
import type { StatuspageDoc } from '../../domain/status-page/statuspage-json.ts';

export const PUBLIC_CACHE_CONTROL = 'public, max-age=10, s-maxage=30, stale-while-revalidate=60, stale-if-error=86400';

/** Sets validators and caching headers; true when the client's copy is current (304 sent). */
export function notModified(req: FastifyRequest, reply: FastifyReply, etag: string, opts: { cacheControl?: string; cors?: boolean } = {}): boolean {
  reply.header('etag', etag);
  reply.header('cache-control', opts.cacheControl ?? PUBLIC_CACHE_CONTROL);
  reply.header('vary', 'Accept-Encoding');
  // Public data without credentials: widgets and aggregators may read it from any origin.
  if (opts.cors !== false) reply.header('access-control-allow-origin', '*');
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    reply.code(304).send();
    return true;
  }
  return false;
}

function origin(req: FastifyRequest, scheme: string): string {
  return `${scheme}://${String(req.headers.host ?? '').toLowerCase()}`;
}

function statuspage(doc: StatuspageDoc) {
  return async ({ ctx, req, reply }: { ctx: import('../../domain/context.ts').Ctx; req: FastifyRequest; reply: FastifyReply }) => {
    const r = await getStatuspageJson(ctx, doc, origin(req, ctx.services.config.publicScheme));
    if (notModified(req, reply, r.etag)) return undefined;
    return r.body;
  };
}

export const publicHandlers = {
  getPublicStatus: async ({ ctx, params, req, reply }) => {
    const r = await getPublicStatus(ctx, params.subdomain);
    if (notModified(req, reply, r.etag)) return undefined;
    return r.body;
  },
  getStatuspageSummary: statuspage('summary'),
  getStatuspageStatus: statuspage('status'),
  getStatuspageComponents: statuspage('components'),
  getStatuspageIncidents: statuspage('incidents'),
  getStatuspageUnresolvedIncidents: statuspage('unresolved'),
  getStatuspageScheduledMaintenances: statuspage('scheduled-maintenances'),
} satisfies HandlerMap;
