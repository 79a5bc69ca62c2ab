// The one gate of private status pages: every public document of a company (its page, history,
// incident and uptime pages, feeds, badges, Statuspage JSON, the public-status and subscribe
// calls, the subscribe pages) is named here by its path, and every request for one passes the
// access decision (domain/status-page/access.ts) in onRequest, before any handler, cache or
// conditional answer (a 304) is reached. A refused visitor gets a password form, a sign-in link
// or a bare problem, never the page's data. An allowed visitor of a protected page gets it with
// `private, no-store` and without the public CORS header, so no shared cache keeps it.
// The company comes from the platform's host mapping (companyOfHost), so other host kinds
// (custom domains) are protected as soon as that mapping knows them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Services } from '../domain/context.ts';
import {
  PASSWORD_COOKIE_SECONDS,
  companyOfHost,
  companyOfSubdomain,
  decidePageAccess,
  hostKey,
  knownOpen,
  openShareLink,
  subdomainKey,
  tryPagePassword,
  type AccessDecision,
} from '../domain/status-page/access.ts';
import { safeLocalPath } from '../../lib/hosts.ts';
import { requestMemo } from '../../lib/request-memo.ts';
import { hostOf } from './request-context.ts';
import { readAccessCookie } from './auth/cookies.ts';
import { problem, sendProblem } from './problem.ts';
import { accessPage, gateError, gateLocale } from './page-access-html.ts';
import { companyOffersSso } from '../domain/sso/require-sso.ts';
import { DomainError } from '../domain/errors.ts';

/** 'frame': an embed frame (embeds.md): refused with an empty frame a foreign site may show. */
export type DocumentKind = 'html' | 'data' | 'frame';

const HTML_DOCUMENTS = /^\/(|history|uptime|incidents\/[^/]+|subscribe(\/.*)?|public-status|index(\.html)?)$/;
const DATA_DOCUMENTS = /^\/((history|feed)\.(rss|atom)|badges\/.+|api\/v2\/.+|api\/v1\/public\/.+)$/;
const EMBED_DATA_DOCUMENTS = /^\/(embed\.js|embed\/status\.json)$/;
const EMBED_FRAMES = /^\/embed\/(badge|banner)$/;
/** What a refused embed frame shows on the site that embeds it: nothing (and no framing error). */
const EMPTY_FRAME = '<!doctype html><html><head><meta charset="utf-8"><title></title></head><body></body></html>';
/** Public calls that name their company in the path rather than by the host. */
const BY_SUBDOMAIN = /^\/api\/v1\/public\/[^/]+\/([^/]+)/;

/** A request path as routers may read it: decoded, slashes collapsed, no trailing slash, lower case. */
export function documentPath(url: string): string {
  const raw = url.split('?')[0].split('#')[0];
  let p: string;
  try {
    p = decodeURIComponent(raw);
  } catch {
    p = raw;
  }
  p = p.replace(/\/{2,}/g, '/').toLowerCase();
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/** Whether a path is one of a company's public documents, and which kind of answer fits it. */
export function documentKind(url: string): DocumentKind | null {
  const p = documentPath(url);
  if (HTML_DOCUMENTS.test(p)) return 'html';
  if (DATA_DOCUMENTS.test(p)) return 'data';
  if (EMBED_DATA_DOCUMENTS.test(p)) return 'data';
  if (EMBED_FRAMES.test(p)) return 'frame';
  return null;
}

function cookieNames(services: Services) {
  const https = services.config.publicScheme === 'https';
  return { password: https ? '__Host-sw_page' : 'sw_page', share: https ? '__Host-sw_share' : 'sw_share' };
}
const COOKIE = { httpOnly: true, secure: true, sameSite: 'lax' as const, path: '/' };

/** Headers of a protected page's answer, whatever its handler set: no shared cache, no CORS. */
const PRIVATE_HEADERS: Record<string, string> = {
  'cache-control': 'private, no-store',
  vary: 'Accept-Encoding, Cookie',
  'x-robots-tag': 'noindex',
};
function keepPrivate(res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const given = rest.find((a) => a && typeof a === 'object' && !Array.isArray(a)) as Record<string, unknown> | undefined;
    for (const name of [...Object.keys(PRIVATE_HEADERS), 'access-control-allow-origin']) {
      res.removeHeader(name);
      if (given) for (const k of Object.keys(given)) if (k.toLowerCase() === name) delete given[k];
    }
    for (const [k, v] of Object.entries(PRIVATE_HEADERS)) res.setHeader(k, v);
    return (writeHead as (...a: unknown[]) => ServerResponse).call(this, status, ...rest);
  } as typeof res.writeHead;
}

function refuse(
  req: FastifyRequest,
  reply: FastifyReply,
  d: Extract<AccessDecision, { allowed: false }>,
  kind: DocumentKind,
  pseudo = false,
  /** the page's sign-in offers "Sign in with SSO" (users mode, SSO configured on a plan with it) */
  sso = false,
) {
  reply.header('cache-control', 'no-store').header('vary', 'Cookie');
  if (kind === 'data') {
    const p =
      d.status === 403
        ? problem(403, 'forbidden', 'This status page is private: it is not available from your address.')
        : problem(401, 'unauthorized', 'This status page is private.');
    return sendProblem(reply, p);
  }
  if (kind === 'frame') {
    return reply
      .code(d.status)
      .header('content-security-policy', "default-src 'none'; frame-ancestors *")
      .type('text/html; charset=utf-8')
      .send(EMPTY_FRAME);
  }
  const next = safeLocalPath(req.url, '/');
  const locale = gateLocale(next, req.headers['accept-language'], pseudo);
  return reply
    .code(d.status)
    .header('vary', 'Cookie, Accept-Language')
    .header('content-language', locale)
    .type('text/html; charset=utf-8')
    .send(accessPage({ mode: d.mode, next, locale, sso }));
}

export function registerPageAccessGuard(app: FastifyInstance, services: Services): void {
  const names = cookieNames(services);

  const check = async (req: FastifyRequest, reply: FastifyReply, kind: DocumentKind, named: string | null): Promise<boolean> => {
    const host = hostOf(req);
    const hostCompanyId = await companyOfHost(services, host);
    const companyId = named ? await companyOfSubdomain(services, named) : hostCompanyId;
    if (!companyId) return true; // no such company: the handlers answer 404
    const d = await decidePageAccess(services, companyId, {
      ip: req.ip,
      host,
      hostCompanyId,
      passwordCookie: req.cookies?.[names.password] ?? null,
      shareCookie: req.cookies?.[names.share] ?? null,
      sessionToken: readAccessCookie(req, services.config),
    });
    if (!d.allowed) {
      const sso = d.mode === 'users' && kind === 'html' && (await companyOffersSso(services, companyId));
      refuse(req, reply, d, kind, services.config.i18nPseudoLocale === true, sso);
      return false;
    }
    if (d.restricted) keepPrivate(reply.raw);
    return true;
  };

  // What each URL asks for, worked out once per distinct URL (the same few, request after request).
  const documentOf = requestMemo((url) => ({ kind: documentKind(url), named: BY_SUBDOMAIN.exec(documentPath(url))?.[1] ?? null }));

  // Callback style: a page this process knows to be public passes without a promise.
  app.addHook('onRequest', (req, reply, done) => {
    const { kind, named } = documentOf(req.url);
    if (!kind) return done();
    if (knownOpen(services, named ? subdomainKey(named) : hostKey(hostOf(req)))) return done();
    check(req, reply, kind, named).then(
      (go) => {
        if (go) done();
      },
      (e: unknown) => {
        // a page (not a data document) says it in HTML, as the status page itself does
        if (kind !== 'html' || !(e instanceof DomainError) || e.code !== 'unavailable') return done(e as Error);
        reply
          .code(503)
          .header('retry-after', '5')
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(
            accessPage({ mode: 'unavailable', next: '/', locale: gateLocale(safeLocalPath(req.url, '/'), req.headers['accept-language']) }),
          );
      },
    );
  });

  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) =>
      done(null, new URLSearchParams(body as string)),
    );

    // The password form's answer: the cookie and back to the page asked for, or the form again.
    scope.post('/access', async (req, reply) => {
      const form = req.body instanceof URLSearchParams ? req.body : new URLSearchParams();
      const next = safeLocalPath(form.get('next'), '/');
      const companyId = await companyOfHost(services, hostOf(req));
      reply.header('cache-control', 'no-store');
      if (!companyId) return reply.callNotFound();
      const r = await tryPagePassword(services, companyId, req.ip, form.get('password') ?? '');
      if (r.kind === 'ok') {
        reply.setCookie(names.password, r.cookie, { ...COOKIE, maxAge: PASSWORD_COOKIE_SECONDS });
        return reply.code(303).header('location', next).send();
      }
      if (r.kind === 'not_protected') return reply.code(303).header('location', next).send();
      const locale = gateLocale(next, req.headers['accept-language'], services.config.i18nPseudoLocale === true);
      const html = (status: number, error: string) =>
        reply
          .code(status)
          .header('content-language', locale)
          .type('text/html; charset=utf-8')
          .send(accessPage({ mode: 'password', next, error, locale }));
      if (r.kind === 'throttled') {
        reply.header('retry-after', String(r.retryAfter));
        return html(429, gateError(locale, 'throttled', r.retryAfter));
      }
      return html(401, gateError(locale, 'wrong'));
    });
  });

  // A share link: kept as a cookie for its remaining time, then the page itself.
  app.get<{ Params: { token: string } }>('/share/:token', async (req, reply) => {
    const companyId = await companyOfHost(services, hostOf(req));
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (!companyId) return reply.callNotFound();
    const opened = await openShareLink(services, req.params.token, companyId);
    if (!opened)
      return reply
        .code(401)
        .type('text/html; charset=utf-8')
        .send(accessPage({ mode: 'share_invalid', next: '/', locale: gateLocale('/', req.headers['accept-language']) }));
    reply.setCookie(names.share, req.params.token, { ...COOKIE, maxAge: opened.seconds });
    return reply.code(303).header('location', '/').send();
  });
}
