// Compression of the JSON answers (API lists, reports, the console's stores): bodies over
// MIN_COMPRESS_BYTES go out in brotli or gzip as the client's Accept-Encoding (with q-values)
// prefers, the same negotiation as the public documents (representation.ts). Answers that
// already chose their coding or carry a validator (the public documents), streams (SSE, files)
// and other types pass untouched. @fastify/compress is not installed: this is the part of it
// the API needs.
import type { FastifyInstance } from 'fastify';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zc } from 'node:zlib';
import { MIN_COMPRESS_BYTES, negotiateCoding } from './representation.ts';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

export function registerJsonCompression(app: FastifyInstance): void {
  // A callback hook: the answers it leaves alone (most of them) pass without a promise.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    if (reply.hasHeader('content-encoding') || reply.hasHeader('etag')) return done(null, payload);
    if (!JSON_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return done(null, payload);
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const coding = negotiateCoding(req.headers['accept-encoding'], body.length);
    // The answer differs by Accept-Encoding once it is big enough to be compressed at all.
    if (body.length >= MIN_COMPRESS_BYTES) varyOnEncoding(reply);
    if (coding !== 'br' && coding !== 'gzip') return done(null, payload);
    const out =
      coding === 'br'
        ? brotliAsync(body, { params: { [zc.BROTLI_PARAM_QUALITY]: 4, [zc.BROTLI_PARAM_SIZE_HINT]: body.length } })
        : gzipAsync(body, { level: 6 });
    out.then(
      (compressed) => {
        reply.header('content-encoding', coding);
        reply.removeHeader('content-length');
        done(null, compressed);
      },
      (e: Error) => done(e),
    );
  });
}

function varyOnEncoding(reply: { getHeader(name: string): unknown; header(name: string, value: string): unknown }): void {
  const vary = String(reply.getHeader('vary') ?? '');
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) return;
  reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}
