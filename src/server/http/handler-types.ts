// Types that tie each handler to its operation in the generated OpenAPI types.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../../api/schema.d.ts';
import type { Ctx } from '../domain/context.ts';

export type OperationId = keyof operations;

type Get<T, K extends PropertyKey> = T extends Record<K, infer V> ? V : never;
type JsonBody<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;

export type PathOf<K extends OperationId> = Get<operations[K]['parameters'], 'path'>;
export type QueryOf<K extends OperationId> = NonNullable<Get<operations[K]['parameters'], 'query'>>;
export type BodyOf<K extends OperationId> = JsonBody<NonNullable<Get<operations[K], 'requestBody'>>>;

export interface HandlerInput<K extends OperationId> {
  ctx: Ctx;
  params: PathOf<K>;
  query: QueryOf<K>;
  body: BodyOf<K>;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** Returns the JSON body; set reply.code() for a status other than 200. */
export type Handler<K extends OperationId> = (input: HandlerInput<K>) => Promise<unknown>;

export type HandlerMap = { [K in OperationId]?: Handler<K> };
