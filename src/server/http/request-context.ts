// Builds the Ctx of one request: who is acting (from the server-side session only), host, ip.
import type { FastifyRequest } from 'fastify';
import type { Ctx, Services } from '../domain/context.ts';
import { resolveActor } from './auth/resolve-actor.ts';
import type { OperationSpec } from './openapi/spec.ts';

export function hostOf(req: FastifyRequest): string {
  const raw = (req.headers.host ?? '').toLowerCase();
  // strip the port; keep IPv6 brackets
  return raw.startsWith('[') ? raw.slice(0, raw.indexOf(']') + 1) : raw.replace(/:\d+$/, '');
}

export async function buildCtx(req: FastifyRequest, services: Services, _op?: OperationSpec): Promise<Ctx> {
  const host = hostOf(req);
  return {
    services,
    actor: await resolveActor(req, services, host),
    host,
    ip: req.ip,
    userAgent: String(req.headers['user-agent'] ?? '').slice(0, 512),
  };
}
