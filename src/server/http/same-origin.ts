// Cross-site state-changing requests are refused: browsers send Origin and Sec-Fetch-Site, so a
// form or fetch from another site cannot act with the user's cookies. Clients that are not
// browsers (OTLP exporters, curl) send neither and are judged by their credentials alone. The
// bodies a cross-site form can send without a preflight (text/plain, form, multipart) are
// refused with 415 by the absence of a parser for them (app.ts), Origin or not.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { problem, sendProblem } from './problem.ts';
import { isOwnOrigin } from './public-origin.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * RFC 8058 one-click unsubscribe: mail providers POST to the link in a mail's List-Unsubscribe
 * header, from their servers or from a webmail page on their own origin. The link's token is
 * its only credential (the route reads no cookie), so a cross-site request gains nothing.
 */
const ONE_CLICK_UNSUBSCRIBE = /^\/unsubscribe\/[^/?]+(\?|$)/;
/**
 * The SAML Assertion Consumer Service: the identity provider's page posts the signed answer from
 * its own origin (HTTP-POST binding). The route reads no cookie; the signed, audience-bound,
 * single-use assertion is its only credential (domain/sso/saml.ts).
 */
const SAML_ACS = /^\/api\/v1\/auth\/sso\/saml\/acs(\?|$)/;

export function isCrossSite(req: FastifyRequest, config: Pick<Config, 'publicPort' | 'publicScheme'>): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = req.headers.origin;
  if (origin === undefined || origin === '') return false;
  return !isOwnOrigin(origin, String(req.headers.host ?? ''), config);
}

export function registerSameOriginGuard(app: FastifyInstance, config: Pick<Config, 'publicPort' | 'publicScheme'>): void {
  // A callback hook: the requests it lets through (every read) pass without a promise.
  app.addHook('onRequest', (req, reply, done) => {
    if (SAFE.has(req.method)) return done();
    if (req.url.startsWith('/v1/traces')) return done(); // server-to-server ingest, keyed by API key
    if (req.method === 'POST' && ONE_CLICK_UNSUBSCRIBE.test(req.url)) return done();
    if (req.method === 'POST' && SAML_ACS.test(req.url)) return done();
    // An API token (`Authorization: Bearer`) is not an ambient credential: a browser never adds
    // it by itself, so a page of another site can only send a token it already holds. Without
    // cookies the request acts with nothing but that token (resolve-actor.ts then ignores the
    // session), so there is no forgery to stop; with cookies the usual check applies.
    if (req.url.startsWith('/api/v1/') && /^Bearer\s/i.test(String(req.headers.authorization ?? '')) && !req.headers.cookie) return done();
    if (!isCrossSite(req, config)) return done();
    sendProblem(reply, problem(403, 'forbidden', 'Cross-site requests are not allowed.'));
  });
}
