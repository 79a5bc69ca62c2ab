// Resolves the signed-in actor of a request from the server-side session (access-token cookie):
// allow-listed algorithm, expiry, session version, live session family, host binding. Returns
// null for anything it does not trust. A company user's session on the main host serves only
// the calls of the redirect flow (who am I, which company, flags, audit, sign out); their data
// lives on their company's subdomain.
import type { FastifyRequest } from 'fastify';
import type { Actor, Services } from '../../domain/context.ts';
import { verifySession } from '../../domain/auth/sessions.ts';
import { DomainError } from '../../domain/errors.ts';
import { tenantOrigin } from '../../../lib/hosts.ts';
import { publicPortOf } from '../public-origin.ts';
import type { OperationSpec } from '../openapi/spec.ts';
import { readAccessCookie } from './cookies.ts';

const MAIN_HOST_COMPANY_CALLS = new Set(['getMe', 'fetchCompany', 'getFlags', 'postAudit', 'logout', 'refreshToken', 'createHandoff']);

export async function resolveActor(req: FastifyRequest, services: Services, host: string): Promise<Actor | null> {
  const token = readAccessCookie(req, services.config);
  if (!token) return null;
  const s = await verifySession(services, token, host);
  if (!s) return null;
  if (s.mainHostCompanyUser) {
    const op = (req.routeOptions?.config as { operation?: OperationSpec } | undefined)?.operation;
    // Admin calls refuse company users anyway, with the spec's own message.
    if (op && op.requiresAuth && !MAIN_HOST_COMPANY_CALLS.has(op.operationId) && !op.path.startsWith('/api/v1/admin/')) {
      const { config } = services;
      const where = s.companySubdomain
        ? ` Continue at ${tenantOrigin(config.publicScheme, s.companySubdomain, config.productDomain, publicPortOf(req.headers.host, config))}/dashboard.`
        : '';
      throw new DomainError('forbidden', `Company accounts work on their company's address.${where}`);
    }
  }
  return s.actor;
}
