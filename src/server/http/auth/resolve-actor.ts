// Resolves the signed-in actor of a request, in one place for both credentials:
// - an API token (`Authorization: Bearer swt_…`, domain/auth/api-tokens.ts): acts as its user,
//   read scope only with safe methods; a request that carries one is judged by it alone;
// - else the server-side session (access-token cookie): allow-listed algorithm, expiry, session
//   version, live session family, host binding.
// Returns null for a session it does not trust; a bad token is a 401 problem (the caller asked
// to be someone). A company user on the main host is served only the calls of the redirect
// flow (who am I, which company, flags, audit, sign out); their data lives on their company's
// subdomain.
import type { FastifyRequest } from 'fastify';
import type { Actor, Services } from '../../domain/context.ts';
import { verifySession } from '../../domain/auth/sessions.ts';
import { verifyApiToken } from '../../domain/auth/api-tokens.ts';
import { DomainError } from '../../domain/errors.ts';
import { tenantOrigin } from '../../../lib/hosts.ts';
import { publicPortOf } from '../public-origin.ts';
import type { OperationSpec } from '../openapi/spec.ts';
import { readAccessCookie } from './cookies.ts';

const MAIN_HOST_COMPANY_CALLS = new Set(['getMe', 'fetchCompany', 'getFlags', 'postAudit', 'logout', 'refreshToken', 'createHandoff']);
const SAFE_METHODS = new Set(['GET', 'HEAD']);
/**
 * Calls that belong to a signed-in person, never to a script: a token must not open a browser
 * session (a handoff link would carry it past two-factor sign-in), change the password or the
 * second factor, or mint more tokens.
 */
const SESSION_ONLY_CALLS = new Set([
  'createHandoff',
  'changePassword',
  'listApiTokens',
  'createApiToken',
  'revokeApiToken',
  'getTwoFactor',
  'startTwoFactor',
  'confirmTwoFactor',
  'disableTwoFactor',
  'listSessions',
  'signOutOtherSessions',
  'createScimToken',
  'revokeScimToken',
  'saveScimRoleGroups',
]);

/** The token of an `Authorization: Bearer …` header, or null when there is none (other schemes, e.g. a proxy's Basic, are not ours). */
export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (typeof header !== 'string' || !/^Bearer\b/i.test(header)) return null;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!m) throw new DomainError('unauthorized', 'The Authorization header must be "Bearer <token>".');
  return m[1];
}

function operationOf(req: FastifyRequest): OperationSpec | undefined {
  return (req.routeOptions?.config as { operation?: OperationSpec } | undefined)?.operation;
}

export async function resolveActor(req: FastifyRequest, services: Services, host: string): Promise<Actor | null> {
  const op = operationOf(req);
  // OTLP ingest reads its own bearer credential (an ingest key, not an API token), and a probe's
  // calls their probe token (domain/probes/hello.ts), incoming alerts their source's token
  // (domain/incoming/receive.ts); API tokens are for the management API only.
  const bearer = op?.apiKey || op?.probeToken || op?.incomingToken || !op?.path.startsWith('/api/v1/') ? null : bearerToken(req);
  let verified: { actor: Actor; mainHostCompanyUser: boolean; companySubdomain: string | null } | null;
  if (bearer !== null) {
    verified = await verifyApiToken(services, bearer, host);
    if (op && SESSION_ONLY_CALLS.has(op.operationId)) {
      throw new DomainError('forbidden', 'API tokens cannot be used for this call. Sign in to the console.');
    }
    if (verified.actor.apiToken?.scope === 'read' && !SAFE_METHODS.has(req.method) && !op?.readTokenPosts) {
      throw new DomainError('forbidden', 'This API token is read-only: it may only read (GET).');
    }
  } else {
    const token = readAccessCookie(req, services.config);
    verified = token ? await verifySession(services, token, host) : null;
  }
  if (!verified) return null;
  if (verified.mainHostCompanyUser) {
    // Admin calls refuse company users anyway, with the spec's own message.
    if (op?.requiresAuth && !MAIN_HOST_COMPANY_CALLS.has(op.operationId) && !op.path.startsWith('/api/v1/admin/')) {
      const { config } = services;
      const where = verified.companySubdomain
        ? ` Continue at ${tenantOrigin(config.publicScheme, verified.companySubdomain, config.productDomain, publicPortOf(req.headers.host, config))}/dashboard.`
        : '';
      throw new DomainError('forbidden', `Company accounts work on their company's address.${where}`);
    }
  }
  return verified.actor;
}
