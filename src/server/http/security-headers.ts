// Security headers on every response. HTML pages get their script/style hashes from Astro's CSP
// <meta>; the header adds what a meta tag cannot carry (frame-ancestors) and locks down the rest.
import type { FastifyInstance } from 'fastify';

const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";
const PAGE_CSP = "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

export function securityHeaders(opts: { https: boolean; html: boolean }): Record<string, string> {
  const h: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'content-security-policy': opts.html ? PAGE_CSP : API_CSP,
  };
  if (opts.https) h['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  return h;
}

/** Astro sends its script/style hashes as a header for SSR pages; add the directives a page always gets. */
export function pageCsp(astroCsp: unknown): string {
  if (typeof astroCsp === 'string' && astroCsp.includes('frame-ancestors')) return astroCsp; // already joined
  return typeof astroCsp === 'string' && astroCsp ? `${astroCsp.replace(/;\s*$/, '')}; ${PAGE_CSP}` : PAGE_CSP;
}

export function registerSecurityHeaders(app: FastifyInstance, opts: { https: boolean }): void {
  // Built once: this hook runs for every answer.
  const page = Object.entries(securityHeaders({ https: opts.https, html: true }));
  const other = Object.entries(securityHeaders({ https: opts.https, html: false }));
  // A callback hook, not an async one: no promise per answer.
  app.addHook('onSend', (req, reply, payload, done) => {
    const html = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
    for (const [k, v] of html ? page : other) {
      if (!reply.hasHeader(k)) reply.header(k, v);
    }
    // API answers speak of a user or a company: private unless the handler made them public
    // (the public status documents say how a CDN may cache them).
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
