// The embeds' routes on each company host (issue 32): /embed.js (the script a company puts on
// its site), /embed/status.json (what it reads), /embed/badge and /embed/banner (the frames that
// need no script). Every answer comes from the page's snapshot through representation.ts
// (codings, ETags, 304s); none sets or reads a cookie. Only the frames may be framed, and by
// anyone: their own CSP says frame-ancestors *, and X-Frame-Options (DENY everywhere else) is
// left off them alone.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx, Services } from '../domain/context.ts';
import { embedLocale, getEmbedFrame, getEmbedScript, getEmbedStatus } from '../domain/status-page/embed.ts';
import type { EmbedFrameKind } from '../domain/status-page/embed-frames.ts';
import { hostOf } from './request-context.ts';
import { RepresentationCache, representation, sendRepresentation } from './representation.ts';

/** The status changes often: browsers ask again within seconds, a CDN keeps it briefly. */
export const EMBED_STATUS_CACHE_CONTROL = 'public, max-age=10, s-maxage=15, stale-while-revalidate=30, stale-if-error=86400';
/** The script changes with a release or the brand colour only. */
export const EMBED_SCRIPT_CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=86400';
export const EMBED_FRAME_CACHE_CONTROL = 'public, max-age=0, s-maxage=15, stale-while-revalidate=60, stale-if-error=86400';
const ANY_ORIGIN = { 'access-control-allow-origin': '*' };

const JSON_TYPE = 'application/json; charset=utf-8';
const SCRIPT_TYPE = 'text/javascript; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

/** The embed routes' paths (the access guard and the framing rule name them too). */
export const EMBED_FRAME_PATHS = /^\/embed\/(badge|banner)\/?$/;

export function registerEmbedRoutes(app: FastifyInstance, services: Services): void {
  const documents = new RepresentationCache();
  const ctxOf = (req: FastifyRequest): Ctx => ({
    services,
    actor: null,
    host: hostOf(req),
    ip: req.ip,
    userAgent: String(req.headers['user-agent'] ?? '').slice(0, 512),
  });
  const query = (req: FastifyRequest, name: string): string | null => {
    const v = (req.query as Record<string, unknown> | undefined)?.[name];
    return typeof v === 'string' ? v : null;
  };
  /** The language, and the Vary a negotiated one needs (a URL's `lang` does not vary). */
  const languageOf = (req: FastifyRequest) => {
    const l = embedLocale(query(req, 'lang'), req.headers['accept-language']);
    return { locale: l.locale, vary: l.explicit ? 'Accept-Encoding' : 'Accept-Encoding, Accept-Language' };
  };

  void app.register(async (scope) => {
    // After the security headers' hook (registered on the root before): the frames alone drop
    // X-Frame-Options, whose only values forbid framing; their CSP's frame-ancestors rules.
    scope.addHook('onSend', (req, reply, payload, done) => {
      if (EMBED_FRAME_PATHS.test(req.url.split('?')[0])) reply.removeHeader('x-frame-options');
      done(null, payload);
    });

    scope.get('/embed/status.json', async (req, reply) => {
      const r = await getEmbedStatus(ctxOf(req));
      const rep = documents.get(`${r.view.company.id} status`, r.view.etag, () =>
        representation(r.view.etag, r.view.generatedAt, JSON_TYPE, JSON.stringify(r.body)),
      );
      return sendRepresentation(req, reply, rep, { 'cache-control': EMBED_STATUS_CACHE_CONTROL, ...ANY_ORIGIN });
    });

    scope.get('/embed.js', async (req, reply) => {
      const { locale, vary } = languageOf(req);
      const r = await getEmbedScript(ctxOf(req), locale);
      const rep = documents.get(`${r.view.company.id} script|${locale}`, r.etag, () =>
        representation(r.etag, r.view.generatedAt, SCRIPT_TYPE, r.body()),
      );
      return sendRepresentation(req, reply, rep, { 'cache-control': EMBED_SCRIPT_CACHE_CONTROL, vary, ...ANY_ORIGIN });
    });

    const frame = (kind: EmbedFrameKind) => async (req: FastifyRequest, reply: FastifyReply) => {
      const { locale, vary } = languageOf(req);
      const r = await getEmbedFrame(ctxOf(req), kind, locale, { theme: query(req, 'theme'), accent: query(req, 'accent') });
      // one ETag per snapshot and look: the look's part keeps two looks' validators apart
      const etag = `${r.view.etag.slice(0, -1)}-${Buffer.from(r.key).toString('base64url')}"`;
      const rep = documents.get(`${r.view.company.id} ${r.key}`, etag, () => {
        const f = r.frame();
        const built = representation(etag, r.view.generatedAt, HTML_TYPE, f.html);
        cspOf.set(built, f.csp);
        return built;
      });
      const csp = cspOf.get(rep)!;
      return sendRepresentation(req, reply, rep, { 'cache-control': EMBED_FRAME_CACHE_CONTROL, vary, 'content-security-policy': csp });
    };
    scope.get('/embed/badge', frame('badge'));
    scope.get('/embed/banner', frame('banner'));
  });
}

/** Each frame representation's CSP (its stylesheet's hash), kept beside its bytes. */
const cspOf = new WeakMap<object, string>();
