// Public status calls (no sign-in): the spec's public-status payload and the Statuspage v2
// documents of the company of the request's host. Each answer is a snapshot's document:
// compressed as the client accepts, with per-coding ETags and Last-Modified, revalidated with
// If-None-Match / If-Modified-Since (304), and cacheable by a CDN.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerMap } from '../handler-types.ts';
import type { Ctx } from '../../domain/context.ts';
import type { StatusPageView } from '../../../lib/status.ts';
import { getPublicStatus, getStatuspageJson } from '../../domain/status-page/service.ts';
import type { StatuspageDoc } from '../../domain/status-page/statuspage-json.ts';
import { RepresentationCache, representation, sendRepresentation } from '../representation.ts';

export const PUBLIC_CACHE_CONTROL = 'public, max-age=10, s-maxage=30, stale-while-revalidate=60, stale-if-error=86400';

/** Public data without credentials: widgets and aggregators may read it from any origin. */
export const PUBLIC_DOCUMENT_HEADERS = { 'cache-control': PUBLIC_CACHE_CONTROL, 'access-control-allow-origin': '*' };

const documents = new RepresentationCache();

/** Sends one snapshot document (JSON, a feed, a badge), built and compressed once per snapshot. */
export function sendSnapshotDocument(
  req: FastifyRequest,
  reply: FastifyReply,
  view: StatusPageView,
  type: string,
  body: () => string,
): FastifyReply {
  const key = `${view.company.id} ${req.url.split('?')[0]}`;
  const rep = documents.get(key, view.etag, () => representation(view.etag, view.generatedAt, type, body()));
  return sendRepresentation(req, reply, rep, PUBLIC_DOCUMENT_HEADERS);
}

const JSON_TYPE = 'application/json; charset=utf-8';

function statuspage(doc: StatuspageDoc) {
  return async ({ ctx, req, reply }: { ctx: Ctx; req: FastifyRequest; reply: FastifyReply }) => {
    const r = await getStatuspageJson(ctx, doc);
    sendSnapshotDocument(req, reply, r.view, JSON_TYPE, () => JSON.stringify(r.body));
    return undefined;
  };
}

export const publicHandlers = {
  getPublicStatus: async ({ ctx, params, req, reply }) => {
    const r = await getPublicStatus(ctx, params.subdomain);
    sendSnapshotDocument(req, reply, r.view, JSON_TYPE, () => JSON.stringify(r.body));
    return undefined;
  },
  getStatuspageSummary: statuspage('summary'),
  getStatuspageStatus: statuspage('status'),
  getStatuspageComponents: statuspage('components'),
  getStatuspageIncidents: statuspage('incidents'),
  getStatuspageUnresolvedIncidents: statuspage('unresolved'),
  getStatuspageScheduledMaintenances: statuspage('scheduled-maintenances'),
  getStatuspageUpcomingMaintenances: statuspage('upcoming-maintenances'),
  getStatuspageActiveMaintenances: statuspage('active-maintenances'),
} satisfies HandlerMap;
