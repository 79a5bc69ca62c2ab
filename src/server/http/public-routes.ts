// Non-API public routes of the status pages: RSS/Atom incident feeds and SVG/shields badges on
// each company host, and the fast path of "/" — a tenant's cached page HTML (rendered by Astro
// once per snapshot, then served compressed from memory) and the prerendered landing page.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zc } from 'node:zlib';
import type { Ctx, Services } from '../domain/context.ts';
import type { PageServices } from '../../lib/page-services.ts';
import { classifyHost } from '../../lib/hosts.ts';
import { getBadge, getIncidentFeed, lookupStatusPage } from '../domain/status-page/service.ts';
import { statusPageCache, type RenderedPage } from '../domain/status-page/cache.ts';
import { hostOf } from './request-context.ts';
import { pageCsp } from './security-headers.ts';
import { notModified } from './handlers/public.ts';
import { DomainError } from '../domain/errors.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Status page HTML: browsers revalidate each time (cheap 304), CDNs keep it briefly. */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=15, stale-while-revalidate=60, stale-if-error=86400';

function publicCtx(req: FastifyRequest, services: Services): Ctx {
  return { services, actor: null, host: hostOf(req), ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '').slice(0, 512) };
}

const originOf = (req: FastifyRequest, services: Services) => `${services.config.publicScheme}://${String(req.headers.host ?? '').toLowerCase()}`;

/** Brotli quality 5: ~1 ms for a 20-monitor page and within 10% of quality 11's size (40x slower). */
async function compressAll(etag: string, html: Buffer, csp: string, quality = 5): Promise<RenderedPage> {
  const br = await brotli(html, { params: { [zc.BROTLI_PARAM_QUALITY]: quality, [zc.BROTLI_PARAM_SIZE_HINT]: html.length } });
  return { etag, html, br, gzip: null, csp };
}

/** Sends pre-compressed bytes in the best encoding the client accepts (gzip made on first use). */
async function sendEncoded(req: FastifyRequest, reply: FastifyReply, page: RenderedPage): Promise<FastifyReply> {
  const accept = String(req.headers['accept-encoding'] ?? '');
  reply.type('text/html; charset=utf-8').header('vary', 'Accept-Encoding').header('content-security-policy', page.csp);
  if (/\bbr\b/.test(accept)) return reply.header('content-encoding', 'br').send(page.br);
  if (/\bgzip\b/.test(accept)) return reply.header('content-encoding', 'gzip').send((page.gzip ??= await gz(page.html, { level: 6 })));
  return reply.send(page.html);
}

/** Lets Astro render the page and keeps a copy of the bytes when it is the snapshot's page. */
function renderAndCapture(reply: FastifyReply, services: Services, subdomain: string, etag: string): void {
  const res = reply.raw;
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => typeof res;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (chunk) chunks.push(Buffer.from(chunk as Uint8Array));
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as Uint8Array));
    const result = end(chunk, ...rest);
    if (res.statusCode === 200 && res.getHeader('etag') === etag && !res.getHeader('content-encoding')) {
      void compressAll(etag, Buffer.concat(chunks), pageCsp(res.getHeader('content-security-policy'))).then((page) => statusPageCache(services).storeRendered(subdomain, page));
    }
    return result;
  }) as typeof res.end;
  reply.callNotFound();
}

export function registerPublicRoutes(app: FastifyInstance, services: Services, pages?: PageServices): void {
  for (const [url, format] of [['/history.rss', 'rss'], ['/history.atom', 'atom'], ['/feed.rss', 'rss'], ['/feed.atom', 'atom']] as const) {
    app.get(url, async (req, reply) => {
      const r = await getIncidentFeed(publicCtx(req, services), format, originOf(req, services));
      if (notModified(req, reply, r.etag)) return reply;
      return reply.type(format === 'rss' ? 'application/rss+xml; charset=utf-8' : 'application/atom+xml; charset=utf-8').send(r.body);
    });
  }

  const badge = async (req: FastifyRequest, reply: FastifyReply, monitorId: string | null, file: string) => {
    const m = /^([a-z0-9-]+)\.(svg|json)$/.exec(file);
    if (!m) throw new DomainError('not_found', 'Unknown badge');
    const r = await getBadge(publicCtx(req, services), monitorId, m[1], m[2] as 'svg' | 'json');
    if (notModified(req, reply, r.etag)) return reply;
    return m[2] === 'svg' ? reply.type('image/svg+xml; charset=utf-8').send(r.body) : reply.type('application/json; charset=utf-8').send(r.body);
  };
  app.get<{ Params: { file: string } }>('/badges/:file', (req, reply) => badge(req, reply, null, req.params.file));
  app.get<{ Params: { monitorId: string; file: string } }>('/badges/:monitorId/:file', (req, reply) => badge(req, reply, req.params.monitorId, req.params.file));

  if (!pages) return;
  let setupDone = false;
  let landing: Promise<RenderedPage | null> | undefined;
  const loadLanding = () =>
    (landing ??= readFile(path.join(services.config.distDir, 'client', 'landing', 'index.html'))
      // Prerendered with the build's PRODUCT_NAME: use it only when it names this product.
      .then((html) => {
        if (!html.includes(`<title>${services.config.productName} ·`)) return null;
        return compressAll(`"l-${createHash('sha256').update(html).digest('base64url').slice(0, 22)}"`, html, pageCsp(null), 11);
      })
      .catch(() => null));

  app.get('/', async (req, reply) => {
    const host = classifyHost(hostOf(req), services.config.productDomain);
    if (host.kind === 'tenant') {
      let found;
      try {
        found = await lookupStatusPage(services, host.subdomain);
      } catch {
        return reply.callNotFound(); // the page explains the failure
      }
      if (found.kind !== 'ok') return reply.callNotFound();
      const etag = found.view.etag;
      const cached = statusPageCache(services).rendered(host.subdomain, etag);
      if (!cached) return renderAndCapture(reply, services, host.subdomain, etag);
      // A 304 carries the page's own CSP: browsers merge a 304's headers into the cached page.
      reply.header('content-security-policy', cached.csp);
      if (notModified(req, reply, etag, { cacheControl: PAGE_CACHE_CONTROL, cors: false })) return reply;
      return sendEncoded(req, reply, cached);
    }
    if (host.kind === 'root' && !req.headers.cookie) {
      setupDone ||= !(await pages.needsSetup());
      const page = setupDone ? await loadLanding() : null;
      if (page) {
        // Revalidated on every visit: after signing in, "/" must lead to /dashboard at once.
        reply.header('content-security-policy', page.csp);
        if (notModified(req, reply, page.etag, { cacheControl: 'no-cache', cors: false })) return reply;
        return sendEncoded(req, reply, page);
      }
    }
    return reply.callNotFound();
  });
}
