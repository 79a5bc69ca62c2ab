// Requests to a company's custom domain (status.acme.com). A verified domain is served the
// company's public documents exactly as its subdomain serves them: the request is re-addressed
// to NAME.PRODUCT_DOMAIN before anything else reads the Host, so every route, cache and tenant
// rule downstream is the subdomain's own, and one company's name can only ever reach its own
// company's pages. Everything else on the name is 404: the console, sign-in, /api/v1 and the
// handoff; only the pages' Login link leads (302) to the company's own host. Sessions never follow: the Authorization header and session cookies are dropped on
// the way in, and no Set-Cookie leaves (except the cookies listed in CUSTOM_DOMAIN_COOKIES, for
// the page's own visitor cookies such as a private page's password). A name that is registered
// but not verified (pending, failed) answers 404 everywhere; a host that is no custom domain at
// all keeps the platform's usual answer for foreign hosts (host-guard.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Config } from '../config.ts';
import type { Services } from '../domain/context.ts';
import { isForeignHost } from '../../lib/custom-domains.ts';
import { hostName, hostPort, tenantOrigin } from '../../lib/hosts.ts';
import { requestMemo } from '../../lib/request-memo.ts';
import { problem, sendProblem } from './problem.ts';
import { isOwnOrigin, publicPortOf } from './public-origin.ts';

/** Cookies a custom domain may set and read (public-page visitor cookies, never a session). */
export const CUSTOM_DOMAIN_COOKIES: ReadonlySet<string> = new Set<string>([
  // a private page's password and share-link cookies (page-access-guard.ts), host-only
  'sw_page',
  '__Host-sw_page',
  'sw_share',
  '__Host-sw_share',
]);

const READ = new Set(['GET', 'HEAD']);
/** The public documents of a company host (public-routes.ts, the Astro status pages, /api/v2). */
const DOCUMENTS = [
  /^\/$/,
  /^\/history$/,
  /^\/uptime$/,
  /^\/incidents\/[^/]+$/,
  /^\/(history|feed)\.(rss|atom)$/,
  /^\/badges\/[^/]+(\/[^/]+)?$/,
  /^\/api\/v2\/[a-z0-9/-]+\.json$/,
  /^\/_astro\/[^/]+$/,
  /^\/favicon\.[a-z]+$/,
];
/** The subscriber pages, whose forms post without JavaScript. */
const SUBSCRIBER = [/^\/subscribe$/, /^\/subscribe\/confirmed$/, /^\/subscribe\/confirm\/[^/]+$/, /^\/unsubscribe\/[^/]+$/];
/** A private page's password form (POST /access) and share links (GET /share/{token}). */
const ACCESS_FORM = /^\/access$/;
const SHARE_LINK = /^\/share\/[^/]+$/;
const PROBES = /^\/(livez|readyz)(\?|$)/;
const LOGIN = /^\/login\/?(\?|$)/;

export function isCustomDomainDocument(method: string, url: string): boolean {
  const path = url.split('?')[0].replace(/(.)\/$/, '$1');
  if (SUBSCRIBER.some((re) => re.test(path))) return READ.has(method) || method === 'POST';
  if (ACCESS_FORM.test(path)) return method === 'POST';
  return READ.has(method) && (DOCUMENTS.some((re) => re.test(path)) || SHARE_LINK.test(path));
}

const cookieName = (c: string) => c.slice(0, c.indexOf('=') === -1 ? c.length : c.indexOf('=')).trim();
const keptCookies = (value: unknown): string[] =>
  [value]
    .flat()
    .filter((v): v is string => typeof v === 'string')
    .filter((c) => CUSTOM_DOMAIN_COOKIES.has(cookieName(c)));

/** Drops every Set-Cookie not listed in CUSTOM_DOMAIN_COOKIES, whoever writes it (Fastify or Astro). */
function refuseSessionCookies(res: ServerResponse): void {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = ((name: string, value: unknown) => {
    if (name.toLowerCase() !== 'set-cookie') return setHeader(name, value as string);
    const kept = keptCookies(value);
    return kept.length ? setHeader(name, kept) : res;
  }) as typeof res.setHeader;
  const writeHead = res.writeHead.bind(res);
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const headers = rest.find((a) => a && typeof a === 'object' && !Array.isArray(a)) as Record<string, unknown> | undefined;
    for (const key of Object.keys(headers ?? {})) {
      if (key.toLowerCase() !== 'set-cookie') continue;
      const kept = keptCookies(headers![key]);
      if (kept.length) headers![key] = kept;
      else delete headers![key];
    }
    if (!keptCookies(res.getHeader('set-cookie')).length) res.removeHeader('set-cookie');
    return writeHead(status, ...(rest as []));
  }) as typeof res.writeHead;
}

function keepOnlyPageCookies(req: FastifyRequest): void {
  delete req.headers.authorization;
  const cookie = req.headers.cookie;
  if (cookie === undefined) return;
  const kept = cookie
    .split(';')
    .map((c) => c.trim())
    .filter((c) => CUSTOM_DOMAIN_COOKIES.has(cookieName(c)));
  if (kept.length) req.headers.cookie = kept.join('; ');
  else delete req.headers.cookie;
}

const notFound = (reply: FastifyReply) => sendProblem(reply, problem(404, 'not_found', 'Not found'));

export function registerCustomDomainHost(app: FastifyInstance, services: Services, config: Config): void {
  const isForeign = requestMemo((hostHeader) => isForeignHost(hostName(hostHeader), config.productDomain));
  const readdress = async (req: FastifyRequest, reply: FastifyReply, hostHeader: string): Promise<unknown> => {
    const host = hostName(hostHeader);
    const route = await services.state.customDomainRoutes.lookup(host).catch(() => undefined);
    if (!route) return;
    keepOnlyPageCookies(req);
    refuseSessionCookies(reply.raw);
    const subdomain = route.state === 'verified' ? route.subdomain : null;
    if (subdomain && req.method === 'GET' && LOGIN.test(req.url)) {
      // The pages' Login link: signing in happens on the company's own host, never here.
      const origin = tenantOrigin(config.publicScheme, subdomain, config.productDomain, publicPortOf(hostHeader, config));
      return reply.redirect(`${origin}/login`, 302);
    }
    if (!subdomain || !isCustomDomainDocument(req.method, req.url)) return notFound(reply);
    const served = `${subdomain}.${config.productDomain}${hostPort(hostHeader)}`;
    const origin = req.headers.origin;
    if (origin && isOwnOrigin(origin, hostHeader, config)) req.headers.origin = `${new URL(origin).protocol}//${served}`;
    req.headers.host = served;
  };
  // A callback hook: the platform's own hosts (nearly every request) pass without a promise.
  app.addHook('onRequest', (req, reply, done) => {
    const hostHeader = String(req.headers.host ?? '');
    if (!isForeign(hostHeader) || PROBES.test(req.url)) return done();
    readdress(req, reply, hostHeader).then(() => done(), done);
  });
}
