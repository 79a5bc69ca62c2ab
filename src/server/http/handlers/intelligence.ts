// API intelligence: the endpoint inventory, RED metrics, trace search, one trace, ingest API keys, and OTLP ingest with
// its CORS preflight.
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { isOwnOrigin } from '../public-origin.ts';
import type { HandlerMap } from '../handler-types.ts';
import { getRedMetrics } from '../../domain/telemetry/red.ts';
import { getApiIntelligence } from '../../domain/telemetry/api-intelligence.ts';
import { getTrace, searchTraces } from '../../domain/telemetry/traces.ts';
import { createApiKey, listApiKeys, revokeApiKey, updateApiKey } from '../../domain/telemetry/api-keys.ts';
import { checkPreflight } from '../../domain/telemetry/browser-origins.ts';
import { ingestTraces } from '../../domain/telemetry/ingest.ts';
import { BodyTimeout } from '../../telemetry/otlp-body.ts';
import { problem, sendProblem } from '../problem.ts';

const header = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(',') : v);

/** The Origin of a cross-origin (browser) request; a page of this host needs no CORS listing. */
function crossOrigin(req: FastifyRequest, config: Config): string | undefined {
  const origin = header(req.headers.origin);
  if (origin === undefined || isOwnOrigin(origin, String(req.headers.host ?? ''), config)) return undefined;
  return origin;
}

export const intelligenceHandlers = {
  getApiIntelligence: async ({ ctx, query }) => getApiIntelligence(ctx, query),
  getRedMetrics: async ({ ctx, query }) => getRedMetrics(ctx, query),
  searchTraces: async ({ ctx, query }) => searchTraces(ctx, query),
  getTrace: async ({ ctx, params }) => getTrace(ctx, params.traceId),
  listApiKeys: async ({ ctx, query }) => listApiKeys(ctx, query),
  createApiKey: async ({ ctx, body, reply }) => {
    const key = await createApiKey(ctx, body);
    reply.code(201);
    return key;
  },
  updateApiKey: async ({ ctx, params, body }) => updateApiKey(ctx, params.id, body),
  preflightTraces: async ({ ctx, req, reply }) => {
    const origin = crossOrigin(req, ctx.services.config);
    if (origin === undefined) return reply.code(204).header('allow', 'POST, OPTIONS').send();
    await checkPreflight(ctx, origin);
    return reply
      .code(204)
      .headers({
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'authorization, content-type, content-encoding',
        'access-control-max-age': '7200',
        vary: 'Origin',
      })
      .send();
  },
  deleteApiKey: async ({ ctx, params, reply }) => {
    await revokeApiKey(ctx, params.id);
    return reply.code(204).send();
  },
  ingestTraces: async ({ ctx, req, reply }) => {
    try {
      const answer = await ingestTraces(ctx, {
        authorization: header(req.headers.authorization),
        contentType: header(req.headers['content-type']),
        contentEncoding: header(req.headers['content-encoding']),
        contentLength: header(req.headers['content-length']),
        origin: crossOrigin(req, ctx.services.config),
        allowOrigin: (origin) => {
          reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
          reply.header('access-control-expose-headers', 'Retry-After');
        },
        // The raw request stream: the route's parser passes it through unread (see routes.ts).
        body: req.body as Readable,
      });
      reply.type(answer.contentType);
      return answer.body;
    } catch (e) {
      if (e instanceof BodyTimeout) return sendProblem(reply, problem(408, 'request_timeout', e.message, { title: 'Request Timeout' }));
      throw e;
    }
  },
} satisfies HandlerMap;
