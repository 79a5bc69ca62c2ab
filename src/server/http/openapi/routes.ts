// Spec-first serving: one Fastify route per documented operation, validated against the
// document at run time, wired to the handler of the same operationId. Operations whose
// capability is not built yet answer 501 with a problem body (see pendingOperations).
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Services } from '../../domain/context.ts';
import type { HandlerMap, OperationId } from '../handler-types.ts';
import { problem, sendProblem } from '../problem.ts';
import { buildCtx } from '../request-context.ts';
import { closeWithoutDraining } from '../unread-body.ts';
import type { LoadedSpec, OperationSpec } from './spec.ts';

export function pendingOperations(spec: LoadedSpec, handlers: HandlerMap): string[] {
  return spec.operations.filter((o) => !handlers[o.operationId as OperationId]).map((o) => o.operationId);
}

export function registerSpecRoutes(app: FastifyInstance, spec: LoadedSpec, handlers: HandlerMap, services: Services): void {
  for (const op of spec.operations) {
    const handler = handlers[op.operationId as OperationId] as
      | ((i: {
          ctx: unknown;
          params: unknown;
          query: unknown;
          body: unknown;
          req: FastifyRequest;
          reply: FastifyReply;
        }) => Promise<unknown>)
      | undefined;
    const schema: Record<string, unknown> = {};
    if (op.params) schema.params = op.params;
    if (op.querystring) schema.querystring = op.querystring;
    if (op.body && !op.rawBody) schema.body = op.body;
    const route = {
      method: op.method,
      url: op.route,
      schema,
      config: { operation: op },
      ...(op.bodyLimit ? { bodyLimit: op.bodyLimit } : {}),
      // An optional JSON body may be left out (PATCH with no changes, POST /pause): Fastify
      // would still validate `undefined` against the object schema and answer "body must be
      // object", so an absent optional object body is read as {}.
      ...(op.body && !op.bodyRequired && !op.rawBody && isObjectSchema(op.body) ? { preValidation: absentBodyAsEmptyObject } : {}),
      // A required body that is absent (or empty, see json-body.ts) is named as such, before
      // schema validation would say "body must be object".
      ...(op.bodyRequired && !op.rawBody ? { preValidation: refuseAbsentBody } : {}),
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        if (!handler) {
          return sendProblem(reply, problem(501, 'not_implemented', `${op.operationId} is not available yet.`));
        }
        const ctx = await buildCtx(req, services, op);
        if (op.requiresAuth && !ctx.actor && !op.apiKey && !op.probeToken && !op.incomingToken && !op.scimToken) {
          return sendProblem(reply, problem(401, 'unauthorized', 'Authentication required. Please sign in.'));
        }
        if (op.bodyRequired && req.body === undefined && !op.rawBody) {
          return sendProblem(reply, problem(400, 'validation', 'The request body is required.'));
        }
        const result = await handler({ ctx, params: req.params, query: req.query ?? {}, body: req.body, req, reply });
        if (reply.sent) return reply;
        return reply.send(result);
      },
    };
    if (op.rawBody) registerRawBodyRoute(app, route);
    else app.route(route);
  }
}

function isObjectSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'object';
}

async function refuseAbsentBody(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (req.body === undefined || req.body === null) await sendProblem(reply, problem(400, 'validation', 'The request body is required.'));
}

async function absentBodyAsEmptyObject(req: FastifyRequest): Promise<void> {
  if (req.body === undefined || req.body === null) req.body = {};
}

/**
 * x-raw-body operations (OTLP ingest) get the request stream unread, whatever its type, in a
 * scope of their own: the handler checks credentials first, then media type, encoding and
 * size itself (with its own caps, counted after decompression).
 * An answer given before the whole body arrived (bad key, over a cap, too slow) closes the
 * connection without reading the rest, which an attacker can make endless (see unread-body.ts).
 */
function registerRawBodyRoute(app: FastifyInstance, route: RouteOptions): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.addHook('onSend', async (req, reply) => {
      if (req.raw.complete) return;
      reply.header('connection', 'close');
      closeWithoutDraining(req.raw.socket);
    });
    scope.route(route);
  });
}

export type { OperationSpec };
