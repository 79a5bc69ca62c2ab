// GET /auth/handoff?code=...: the browser arrives on the target host with a one-time code
// (see domain/auth/handoff.ts), gets its own host-only cookies and lands on /dashboard, or on
// `next` when that is a path on this host.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../domain/context.ts';
import { redeemHandoffCode } from '../../domain/auth/handoff.ts';
import { classifyHost, isTenantHost, safeLocalPath } from '../../../lib/hosts.ts';
import { publicPortOf } from '../public-origin.ts';
import { hostOf } from '../request-context.ts';
import { setSessionCookies } from './cookies.ts';

/**
 * Whether our own pages sent the browser here. Without this, anyone could mail a victim the link
 * of a code issued to the sender's own account and sign the victim into it (login CSRF). Browsers
 * mark a navigation from the main host to a company host (and back) same-site; *.localhost is
 * not one site, so there the Referer (origin only, by our Referrer-Policy) must name one of our
 * hosts on this port. A browser that sends no Sec-Fetch-Site is let through.
 */
function sentByOurPages(req: FastifyRequest, services: Services): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site === undefined || site === 'same-origin' || site === 'same-site') return true;
  const referer = String(req.headers.referer ?? '');
  try {
    const from = new URL(referer);
    return (
      classifyHost(from.host, services.config.productDomain).kind !== 'invalid' &&
      (from.port ? `:${from.port}` : '') === publicPortOf(req.headers.host, services.config)
    );
  } catch {
    return false;
  }
}

/**
 * Where to land: `next` when it is a path on this host, percent-encoding what a Location header
 * cannot carry (a space, U+3000, any non-ASCII), so an odd `next` never fails the redirect after
 * the code is spent.
 */
function landingPath(next: unknown): string {
  try {
    return safeLocalPath(next).replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
  } catch {
    return safeLocalPath(undefined); // a lone surrogate cannot be encoded
  }
}

export function registerIdentityRoutes(app: FastifyInstance, services: Services): void {
  app.get('/auth/handoff', async (req, reply) => {
    const host = hostOf(req);
    const query = (req.query ?? {}) as Record<string, unknown>;
    const code = String(query.code ?? '');
    const landing = landingPath(query.next);
    // A code arriving from elsewhere is left unused: its owner may still redeem it from our pages.
    const redeemed = sentByOurPages(req, services)
      ? await redeemHandoffCode(services, code, host, String(req.headers['user-agent'] ?? ''), req.ip)
      : null;
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (!redeemed) {
      const login = isTenantHost(host, services.config.productDomain) ? '/company-login' : '/login';
      return reply.redirect(`${login}?error=handoff`, 303);
    }
    setSessionCookies(reply, services.config, redeemed.session);
    // `next` is not part of the code: it may only name a path on this same host.
    return reply.redirect(landing, 303);
  });
}
