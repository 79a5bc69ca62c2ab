// GET /auth/handoff?code=...: the browser arrives on the target host with a one-time code
// (see domain/auth/handoff.ts), gets its own host-only cookies and lands on /dashboard, or on
// `next` when that is a path on this host.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/context.ts';
import { redeemHandoffCode } from '../../domain/auth/handoff.ts';
import { isTenantHost, safeLocalPath } from '../../../lib/hosts.ts';
import { hostOf } from '../request-context.ts';
import { setSessionCookies } from './cookies.ts';

export function registerIdentityRoutes(app: FastifyInstance, services: Services): void {
  app.get('/auth/handoff', async (req, reply) => {
    const host = hostOf(req);
    const query = (req.query ?? {}) as Record<string, unknown>;
    const code = String(query.code ?? '');
    const redeemed = await redeemHandoffCode(services, code, host, String(req.headers['user-agent'] ?? ''), req.ip);
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (!redeemed) {
      const login = isTenantHost(host, services.config.productDomain) ? '/company-login' : '/login';
      return reply.redirect(`${login}?error=handoff`, 303);
    }
    setSessionCookies(reply, services.config, redeemed.session);
    // `next` is not part of the code: it may only name a path on this same host.
    return reply.redirect(safeLocalPath(query.next), 303);
  });
}
