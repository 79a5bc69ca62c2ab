// API intelligence: RED metrics, trace search, one trace, ingest API keys, and OTLP ingest.
import type { Readable } from 'node:stream';
import type { HandlerMap } from '../handler-types.ts';
import { getRedMetrics } from '../../domain/telemetry/red.ts';
import { getTrace, searchTraces } from '../../domain/telemetry/traces.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../../domain/telemetry/api-keys.ts';
import { ingestTraces } from '../../domain/telemetry/ingest.ts';
import { BodyTimeout } from '../../telemetry/otlp-body.ts';
import { problem, sendProblem } from '../problem.ts';

const header = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(',') : v);

export const intelligenceHandlers = {
  getRedMetrics: async ({ ctx, query }) => getRedMetrics(ctx, query),
  searchTraces: async ({ ctx, query }) => searchTraces(ctx, query),
  getTrace: async ({ ctx, params }) => getTrace(ctx, params.traceId),
  listApiKeys: async ({ ctx, query }) => listApiKeys(ctx, query),
  createApiKey: async ({ ctx, body, reply }) => {
    const key = await createApiKey(ctx, body);
    reply.code(201);
    return key;
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
