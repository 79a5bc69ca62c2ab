// Non-API public routes of the status pages: RSS/Atom incident feeds and SVG/shields badges on
// each company host, and the fast path of "/" — a tenant's cached page HTML (rendered by Astro
// once per snapshot into memory, compressed, then served from memory) and the prerendered
// landing page. Every answer goes through representation.ts (codings, ETags, Last-Modified).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zc } from 'node:zlib';
import type { Ctx, Services } from '../domain/context.ts';
import type { PageServices } from '../../lib/page-services.ts';
import { classifyHost, type HostClass } from '../../lib/hosts.ts';
import { requestMemo } from '../../lib/request-memo.ts';
import { getBadge, getIncidentFeed, lookupStatusPage } from '../domain/status-page/service.ts';
import type { RenderedPage } from '../domain/status-page/cache.ts';
import { hostOf } from './request-context.ts';
import { pageCsp } from './security-headers.ts';
import { sendSnapshotDocument } from './handlers/public.ts';
import { answerFor, type Answer, type Representation } from './representation.ts';
import { DomainError } from '../domain/errors.ts';
import { getHistoryPage, getIncidentPage, getUptimePage, historyKey } from '../domain/status-page/history.ts';
import type { HistoryPageLookup } from '../../lib/status-history.ts';
import { uptimeRange } from '../../lib/uptime-calendar.ts';
import { statusRendersTotal, statusSplicesTotal } from '../metrics/platform.ts';
import { statusPageParts } from '../../lib/status-page-markup.ts';
import { spliceBase, splicePage } from '../../lib/status-page-splice.ts';
import { localizeStatusView } from '../../lib/i18n/localize-view.ts';
import { choosePageVariant, variantEtag, variantHeaders, type PageLanguages, type PageVariant } from '../../lib/page-locale.ts';
import { cspForHtml } from './csp-for-html.ts';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/**
 * Brotli quality of a rendered page, chosen by measurement on the 20-monitor page (110 KB of
 * HTML; CPU per compression): q3 8.0 KB 0.22 ms, q4 7.5 KB 0.34 ms, q5 6.9 KB 0.55 ms, q9 6.9 KB
 * 5.4 ms, q11 6.4 KB 29 ms. Every change of the page pays it once; q4 keeps the page well
 * within its weight target at 60 % of q5's cost.
 */
const PAGE_BROTLI_QUALITY = 4;
/** A render that has not ended by then no longer holds the requests waiting for it. */
const RENDER_WAIT_MS = 5000;

/** Status page HTML: browsers revalidate each time (cheap 304), CDNs keep it briefly. */
export const PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=15, stale-while-revalidate=60, stale-if-error=86400';
const HTML = 'text/html; charset=utf-8';

function publicCtx(req: FastifyRequest, services: Services): Ctx {
  return { services, actor: null, host: hostOf(req), ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '').slice(0, 512) };
}

/**
 * The codings made with a render (in the thread pool): brotli, which every browser takes, so no
 * answer after a change waits for one. gzip only with `gzip` (the prerendered landing page): a
 * tenant page makes it on the first gzip-only request of its snapshot (representation.ts, once,
 * kept beside it); browsers never ask for it, and making it at every change doubled the cost of
 * compression (gzip 6 costs 0.43 ms of CPU for a 20-monitor page).
 */
async function compressPage(etag: string, html: Buffer, csp: string, quality: number, gzip: boolean): Promise<RenderedPage> {
  const [br, gz] = await Promise.all([
    brotliAsync(html, { params: { [zc.BROTLI_PARAM_QUALITY]: quality, [zc.BROTLI_PARAM_SIZE_HINT]: html.length } }),
    gzip ? gzipAsync(html, { level: 6 }) : null,
  ]);
  return { etag, html, br, gzip: gz, csp };
}

/** The answer for a cached page (in `variant`'s language: its Content-Language and Vary). */
function answerPage(req: FastifyRequest, page: RenderedPage, modifiedAt: number, cacheControl: string, variant?: PageVariant): Answer {
  const rep: Representation = { etag: page.etag, modifiedAt, type: HTML, identity: page.html, br: page.br, gzip: page.gzip };
  // A 304 carries the page's own CSP too: browsers merge a 304's headers into the cached page.
  const extra = { 'cache-control': cacheControl, 'content-security-policy': page.csp };
  const answer = answerFor(req, rep, variant ? { ...extra, ...variantHeaders(variant) } : extra);
  page.gzip ??= rep.gzip ?? null;
  return answer;
}

function sendPage(
  req: FastifyRequest,
  reply: FastifyReply,
  page: RenderedPage,
  modifiedAt: number,
  cacheControl: string,
  variant?: PageVariant,
): FastifyReply {
  const a = answerPage(req, page, modifiedAt, cacheControl, variant);
  return reply
    .code(a.status)
    .headers(a.headers)
    .send(a.body ?? undefined);
}

interface Captured {
  status: number;
  headers: Record<string, unknown>;
  body: Buffer;
}

/**
 * Lets Astro render "/" into memory instead of onto the socket (it is mounted as the not-found
 * handler, which hijacks the reply), so the first visitor after a change already gets the page
 * compressed, then answers with `finish`.
 */
function renderInMemory(reply: FastifyReply, finish: (res: ServerResponse, page: Captured) => Promise<void>): void {
  const res = reply.raw;
  const own = { writeHead: res.writeHead, write: res.write, end: res.end };
  const chunks: Buffer[] = [];
  let status = 200;
  let headers: Record<string, unknown> = {};
  // A written chunk is the writer's no more (stream rule): kept as a view, copied once by concat.
  const take = (chunk: unknown, encoding?: unknown) => {
    if (!chunk || typeof chunk === 'function') return;
    if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    else {
      const u8 = chunk as Uint8Array;
      chunks.push(Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength));
    }
  };
  res.writeHead = ((code: number, ...rest: unknown[]) => {
    status = code;
    headers = { ...res.getHeaders(), ...(rest.find((a) => a && typeof a === 'object') as Record<string, unknown> | undefined) };
    return res;
  }) as typeof res.writeHead;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    take(chunk, rest[0]);
    const done = rest.find((a) => typeof a === 'function') as (() => void) | undefined;
    if (done) queueMicrotask(done);
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    take(chunk, rest[0]);
    Object.assign(res, own);
    if (!Object.keys(headers).length) headers = { ...res.getHeaders() };
    status = res.statusCode === 200 ? status : res.statusCode;
    void finish(res, { status, headers, body: Buffer.concat(chunks) }).catch(() => res.destroy());
    return res;
  }) as typeof res.end;
  reply.callNotFound();
}

/** Writes a raw answer on a hijacked response. */
function writeRaw(res: ServerResponse, status: number, headers: Record<string, unknown>, body: Buffer | string | null): void {
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) res.setHeader(k, v as string);
  // the phrase of this status: a reason Astro left on the response may belong to another one
  res.writeHead(status, STATUS_CODES[status] ?? '');
  res.end(body ?? undefined);
}

export function registerPublicRoutes(app: FastifyInstance, services: Services, pages?: PageServices): void {
  /** Which host a request names (root, a company's, neither), once per distinct host. */
  const hostClass = requestMemo((host) => classifyHost(host, services.config.productDomain));
  for (const [url, format] of [
    ['/history.rss', 'rss'],
    ['/history.atom', 'atom'],
    ['/feed.rss', 'rss'],
    ['/feed.atom', 'atom'],
  ] as const) {
    app.get(url, async (req, reply) => {
      const r = await getIncidentFeed(publicCtx(req, services), format);
      const type = format === 'rss' ? 'application/rss+xml; charset=utf-8' : 'application/atom+xml; charset=utf-8';
      return sendSnapshotDocument(req, reply, r.view, type, () => r.body);
    });
  }

  const badge = async (req: FastifyRequest, reply: FastifyReply, monitorId: string | null, file: string) => {
    const m = /^([a-z0-9-]+)\.(svg|json)$/.exec(file);
    if (!m) throw new DomainError('not_found', 'Unknown badge');
    const r = await getBadge(publicCtx(req, services), monitorId, m[1], m[2] as 'svg' | 'json');
    if (typeof r.body === 'string') return sendSnapshotDocument(req, reply, r.view, 'image/svg+xml; charset=utf-8', () => r.body as string);
    return sendSnapshotDocument(req, reply, r.view, 'application/json; charset=utf-8', () => JSON.stringify(r.body));
  };
  app.get<{ Params: { file: string } }>('/badges/:file', (req, reply) => badge(req, reply, null, req.params.file));
  app.get<{ Params: { monitorId: string; file: string } }>('/badges/:monitorId/:file', (req, reply) =>
    badge(req, reply, req.params.monitorId, req.params.file),
  );

  if (!pages) return;
  let setupDone = false;
  let landing: Promise<{ page: RenderedPage; modifiedAt: number } | null> | undefined;
  const loadLanding = () =>
    (landing ??= (async () => {
      const file = path.join(services.config.distDir, 'client', 'landing', 'index.html');
      const [html, info] = await Promise.all([readFile(file), stat(file)]);
      // Prerendered with the build's PRODUCT_NAME: use it only when it names this product.
      if (!html.includes(`<title>${services.config.productName} ·`)) return null;
      const page = await compressPage(
        `"l-${createHash('sha256').update(html).digest('base64url').slice(0, 22)}"`,
        html,
        pageCsp(null),
        11,
        true,
      );
      return { page, modifiedAt: info.mtimeMs };
    })().catch(() => null));

  /** Renders in flight by page and snapshot: the requests that arrive meanwhile wait for them. */
  const rendering = new Map<string, Promise<RenderedPage | null>>();

  /**
   * A tenant page from memory, or rendered by Astro into memory once per snapshot (then kept
   * compressed beside it). Single flight: the first request for a snapshot's page renders it;
   * the others wait for that render (a few ms) and get its compressed bytes, so a change costs
   * one render, not one per concurrent visitor. Astro renders the whole page (it would answer a
   * matching If-None-Match with a bodiless 304); the conditions are checked here on the result.
   */
  const serveRendered = async (
    req: FastifyRequest,
    reply: FastifyReply,
    found: {
      etag: string;
      generatedAt: number;
      flight: string;
      kind: 'status' | 'extra';
      /** this snapshot's page made from the last full render, or null (then Astro renders it) */
      splice?: () => { html: Buffer; csp: string } | null;
      /** keeps a full render for later splices */
      keepBase?: (html: Buffer, csp: string) => void;
      /** the language and zone of this answer */
      variant: PageVariant;
    },
    cached: RenderedPage | undefined,
    store: (page: RenderedPage) => void,
  ) => {
    const { etag, generatedAt, variant } = found;
    if (cached) return sendPage(req, reply, cached, generatedAt, PAGE_CACHE_CONTROL, variant);
    const running = rendering.get(found.flight);
    if (running) {
      const page = await running;
      if (page) return sendPage(req, reply, page, generatedAt, PAGE_CACHE_CONTROL, variant);
      // That render gave no page of this snapshot (an error page, or the data moved on): Astro
      // answers this request itself.
      return reply.callNotFound();
    }
    let settle!: (page: RenderedPage | null) => void;
    const flight = new Promise<RenderedPage | null>((resolve) => (settle = resolve));
    rendering.set(found.flight, flight);
    const done = (page: RenderedPage | null) => {
      clearTimeout(timer);
      if (rendering.get(found.flight) === flight) rendering.delete(found.flight);
      settle(page);
    };
    const timer = setTimeout(() => done(null), RENDER_WAIT_MS);
    statusRendersTotal.inc({ page: found.kind });
    const spliced = found.splice?.();
    if (spliced) {
      statusSplicesTotal.inc();
      const page = await compressPage(etag, spliced.html, spliced.csp, PAGE_BROTLI_QUALITY, false).catch((e: unknown) => {
        done(null);
        throw e;
      });
      store(page);
      done(page);
      return sendPage(req, reply, page, generatedAt, PAGE_CACHE_CONTROL, variant);
    }
    const conditions = { inm: req.raw.headers['if-none-match'], ims: req.raw.headers['if-modified-since'] };
    delete req.raw.headers['if-none-match'];
    delete req.raw.headers['if-modified-since'];
    return renderInMemory(reply, async (res, out) => {
      if (conditions.inm !== undefined) req.raw.headers['if-none-match'] = conditions.inm;
      if (conditions.ims !== undefined) req.raw.headers['if-modified-since'] = conditions.ims;
      if (out.status !== 200 || out.headers.etag !== etag || out.headers['content-encoding']) {
        done(null);
        return writeRaw(res, out.status, out.headers, out.body);
      }
      // computed once per render, then sent with every answer of it: only what this HTML needs
      const csp = cspForHtml(pageCsp(out.headers['content-security-policy']), out.body.toString('utf8'));
      const page = await compressPage(etag, out.body, csp, PAGE_BROTLI_QUALITY, false).catch((e: unknown) => {
        done(null);
        throw e;
      });
      found.keepBase?.(out.body, csp);
      store(page);
      done(page);
      const a = answerPage(req, page, generatedAt, PAGE_CACHE_CONTROL, variant);
      writeRaw(res, a.status, a.headers, a.body);
    });
  };

  // /history, /incidents/{id} and /uptime: their data kept with the company's snapshot
  // (history.ts), their HTML beside it, both dropped at the snapshot's next change.
  const query = (req: FastifyRequest, name: string): string | null => {
    const v = (req.query as Record<string, unknown> | undefined)?.[name];
    return typeof v === 'string' ? v : null;
  };
  /** The language and zone a request gets of a page offering `langs` (page-locale.ts); the same choice the page makes. */
  const variantOf = (req: FastifyRequest, langs: PageLanguages): PageVariant =>
    choosePageVariant(langs, {
      lang: query(req, 'lang'),
      tz: query(req, 'tz'),
      acceptLanguage: req.headers['accept-language'] ?? null,
      pseudo: services.config.i18nPseudoLocale === true,
    });
  type Extra = { etag: string; generatedAt: number; key: string; variant: PageVariant } | null;
  const extraPage =
    (lookup: (subdomain: string, req: FastifyRequest) => Promise<Extra>) => async (req: FastifyRequest, reply: FastifyReply) => {
      const host = hostClass(hostOf(req));
      if (host.kind !== 'tenant') return reply.callNotFound();
      const found = await lookup(host.subdomain, req).catch(() => null);
      if (!found) return reply.callNotFound(); // the page explains what is missing
      const cache = services.state.statusPageCache;
      const v = found.variant.key;
      const flight = `${host.subdomain}|${found.key}|${found.etag}`;
      return serveRendered(
        req,
        reply,
        { ...found, flight, kind: 'extra' },
        cache.renderedExtra(host.subdomain, found.key, found.etag, v),
        (page) => cache.storeRenderedExtra(host.subdomain, found.key, page, v),
      );
    };
  // The data is the snapshot's, shared by every language; the ETag is the variant's.
  const extraOf = <T>(req: FastifyRequest, key: string, r: HistoryPageLookup<T>): Extra => {
    if (r.kind !== 'ok') return null;
    const variant = variantOf(req, r.view.languages);
    return { etag: variantEtag(r.etag, variant), generatedAt: r.view.generatedAt, key, variant };
  };
  app.get(
    '/history',
    extraPage(async (sub, req) => {
      const month = historyKey(services.now(), query(req, 'month'));
      return extraOf(req, `history:${month.key}`, await getHistoryPage(services, sub, month.key));
    }),
  );
  app.get(
    '/uptime',
    extraPage(async (sub, req) => {
      const months = uptimeRange(query(req, 'months'));
      return extraOf(req, `uptime:${months}`, await getUptimePage(services, sub, String(months)));
    }),
  );
  app.get<{ Params: { id: string } }>(
    '/incidents/:id',
    extraPage(async (sub, req) => {
      const id = (req.params as { id: string }).id;
      return extraOf(req, `incident:${id}`, await getIncidentPage(services, sub, id));
    }),
  );

  const tenantPage = async (req: FastifyRequest, reply: FastifyReply, subdomain: string) => {
    let found;
    try {
      found = await lookupStatusPage(services, subdomain);
    } catch {
      return reply.callNotFound(); // the page explains the failure
    }
    if (found.kind !== 'ok') return reply.callNotFound();
    const { view } = found;
    const { generatedAt } = view;
    const variant = variantOf(req, view.languages);
    const etag = variantEtag(view.etag, variant);
    const v = variant.key;
    const cache = services.state.statusPageCache;
    const flight = `${subdomain}||${etag}`;
    let parts: ReturnType<typeof statusPageParts> | undefined;
    const partsOf = () =>
      (parts ??= statusPageParts(localizeStatusView(view, variant.locale), pages.productName, pages.mainSiteUrl, variant));
    // A change that leaves the page's frame as it was (a check: banner and rows) is spliced into
    // the last full render of the same variant; anything else is rendered by Astro, which then
    // becomes that variant's base.
    const splice = () => {
      const base = cache.spliceBase(subdomain, v);
      const html = base ? splicePage(base, partsOf()) : null;
      return html === null ? null : { html: Buffer.from(html), csp: base!.csp };
    };
    const keepBase = (html: Buffer, csp: string) => cache.storeSpliceBase(subdomain, spliceBase(html, partsOf(), csp), v);
    return serveRendered(
      req,
      reply,
      { etag, generatedAt, flight, kind: 'status', splice, keepBase, variant },
      cache.rendered(subdomain, etag, v),
      (page) => cache.storeRendered(subdomain, page, v, view.etag),
    );
  };

  const rootPage = async (req: FastifyRequest, reply: FastifyReply, host: HostClass) => {
    if (host.kind === 'root' && !req.headers.cookie) {
      setupDone ||= !(await pages.needsSetup());
      const landingPage = setupDone ? await loadLanding() : null;
      // Revalidated on every visit: after signing in, "/" must lead to /dashboard at once.
      if (landingPage) return sendPage(req, reply, landingPage.page, landingPage.modifiedAt, 'no-cache');
    }
    return reply.callNotFound();
  };

  // Not async: the answer nearly every request gets (a fresh snapshot's page, in memory) is
  // sent without a promise; everything else goes through tenantPage or rootPage.
  app.get('/', (req, reply) => {
    const host = hostClass(hostOf(req));
    if (host.kind !== 'tenant') return rootPage(req, reply, host);
    const cache = services.state.statusPageCache;
    const fresh = cache.fresh(host.subdomain);
    if (fresh?.kind !== 'ok') return tenantPage(req, reply, host.subdomain);
    const variant = variantOf(req, fresh.view.languages);
    const page = cache.rendered(host.subdomain, variantEtag(fresh.view.etag, variant), variant.key);
    if (!page) return tenantPage(req, reply, host.subdomain);
    sendPage(req, reply, page, fresh.view.generatedAt, PAGE_CACHE_CONTROL, variant);
  });
}
