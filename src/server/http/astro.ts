// Mounts the built Astro app (middleware mode) behind Fastify, and the built static assets.
// Hashed files under /_astro are immutable; everything else revalidates. Compressible files are
// served from their .br/.gz copies made at build (scripts/precompress-assets.ts) by Accept-Encoding,
// with Vary: Accept-Encoding; a file without copies goes out as is.
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PageServices } from '../../lib/page-services.ts';
import { pageCsp, securityHeaders } from './security-headers.ts';

type AstroHandler = (req: unknown, res: unknown, next: (err?: unknown) => void, locals: object) => Promise<void>;

type RawReply = { writeHead: (...args: any[]) => unknown; statusMessage: string };

/**
 * Astro writes its own content-security-policy (script/style hashes) in writeHead, which would
 * replace the page policy set above (frame-ancestors, object-src, form-action): join the two.
 * It also copies the reason phrase of the Response it rendered, which for its 404 page is the
 * "OK" of the page's own 200: every status goes out with its standard phrase ("404 Not Found").
 */
function fixAstroWriteHead(res: RawReply): void {
  const writeHead = res.writeHead.bind(res);
  res.writeHead = (status: number, ...rest: any[]) => {
    if (typeof rest[0] === 'string') rest.shift();
    res.statusMessage = STATUS_CODES[status] ?? '';
    const headers = rest.find((a) => a && typeof a === 'object') as Record<string, unknown> | undefined;
    if (headers) {
      const key = Object.keys(headers).find((k) => k.toLowerCase() === 'content-security-policy');
      if (key) headers[key] = pageCsp(headers[key]);
    }
    return writeHead(status, ...rest);
  };
}

export function astroBuilt(dist: string): boolean {
  return existsSync(path.join(dist, 'server', 'entry.mjs'));
}

export async function registerAstro(app: FastifyInstance, pages: PageServices, https: boolean, dist: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: path.join(dist, 'client'),
    wildcard: false,
    index: false,
    redirect: false,
    preCompressed: true,
    setHeaders(reply, file) {
      reply.header(
        'cache-control',
        file.includes(`${path.sep}_astro${path.sep}`) ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
    },
  });
  const entry = (await import(pathToFileURL(path.join(dist, 'server', 'entry.mjs')).href)) as { handler: AstroHandler };
  app.setNotFoundHandler(async (req, reply) => {
    if (req.url.startsWith('/api/') || req.url.startsWith('/v1/')) {
      return reply
        .code(404)
        .type('application/problem+json')
        .send({
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          code: 'not_found',
          detail: `No route ${req.method} ${req.url.split('?')[0]}`,
        });
    }
    reply.hijack();
    // Fastify's onSend hooks do not run for hijacked replies: set the page headers here.
    for (const [k, v] of Object.entries(securityHeaders({ https, html: true }))) reply.raw.setHeader(k, v);
    fixAstroWriteHead(reply.raw);
    await entry.handler(
      req.raw,
      reply.raw,
      (err) => {
        if (!reply.raw.headersSent) {
          reply.raw.statusCode = err ? 500 : 404;
          reply.raw.end(err ? 'Internal Server Error' : 'Not Found');
        }
      },
      { services: pages, clientIp: req.ip },
    );
  });
}
