// HTTP delivery of the public documents (status page, feeds, badges, JSON): content coding
// negotiated from Accept-Encoding with its q-values (RFC 9110 §12.5.3), one ETag per coding
// (a br body and an identity body are different representations), Last-Modified from the
// snapshot, and the conditional requests (If-None-Match, else If-Modified-Since) answered 304.
import { brotliCompressSync, gzipSync, constants as zc } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { problem } from './problem.ts';
import { requestMemo } from '../../lib/request-memo.ts';

export type Coding = 'br' | 'gzip' | 'identity';

/** Bodies smaller than this gain too little from compression to be worth the CPU. */
export const MIN_COMPRESS_BYTES = 1024;

/** One document's bytes; the compressed forms are made once, on first use. */
export interface Representation {
  /** strong ETag of the identity body, e.g. "sp-abc" */
  etag: string;
  /** when the data changed (ms): Last-Modified */
  modifiedAt: number;
  type: string;
  identity: Buffer;
  br?: Buffer | null;
  gzip?: Buffer | null;
}

export function representation(etag: string, modifiedAt: number, type: string, body: string | Buffer): Representation {
  return { etag, modifiedAt, type, identity: typeof body === 'string' ? Buffer.from(body) : body };
}

/** Brotli quality 5: ~1 ms for a 20-monitor page and within 10% of quality 11's size (40x slower). */
export function brotli(bytes: Buffer, quality = 5): Buffer {
  return brotliCompressSync(bytes, { params: { [zc.BROTLI_PARAM_QUALITY]: quality, [zc.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
}

function bodyFor(rep: Representation, coding: Coding): Buffer {
  if (coding === 'br') return (rep.br ??= brotli(rep.identity));
  if (coding === 'gzip') return (rep.gzip ??= gzipSync(rep.identity, { level: 6 }));
  return rep.identity;
}

/** The ETag of one coding of a document: "x" (identity), "x-br", "x-gz". */
export function codedEtag(etag: string, coding: Coding): string {
  if (coding === 'identity') return etag;
  return `${etag.slice(0, -1)}-${coding === 'br' ? 'br' : 'gz'}"`;
}

/**
 * The coding to send for an Accept-Encoding header, or null when none is acceptable (406).
 * No header: identity. A coding absent from the list takes the q of `*`; identity is acceptable
 * unless refused by `identity;q=0` (or `*;q=0` without an identity entry). Small bodies go
 * uncompressed unless identity is refused. The highest q wins; ties prefer br, then gzip.
 */
export function negotiateCoding(header: string | string[] | undefined, size: number): Coding | null {
  if (header === undefined) return 'identity';
  const codings = negotiated(typeof header === 'string' ? header : header.join(','));
  return codings[size < MIN_COMPRESS_BYTES ? 0 : 1];
}

/** The codings chosen for recent Accept-Encoding values (browsers send a handful of them). */
const negotiated = requestMemo(negotiate, { max: 256 });

/** The coding for a body under MIN_COMPRESS_BYTES, and for one over it. */
function negotiate(header: string): [Coding | null, Coding | null] {
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      if (!/^q\s*=/.test(p)) continue;
      // An unreadable weight is not a yes.
      const m = /^q\s*=\s*([01](\.\d{0,3})?)$/.exec(p);
      weight = m ? Math.min(1, Number(m[1])) : 0;
    }
    const coding = name === 'x-gzip' ? 'gzip' : name;
    // The most favourable weight wins when a coding is listed twice.
    q.set(coding, Math.max(weight, q.get(coding) ?? 0));
  }
  const star = q.get('*');
  // Identity not named at all is acceptable, but ranks below any coding the client asked for.
  const weight = (c: Coding) => q.get(c) ?? star ?? (c === 'identity' ? Number.MIN_VALUE : 0);
  let best: Coding | null = null;
  for (const c of ['br', 'gzip', 'identity'] as const) {
    if (weight(c) > 0 && (best === null || weight(c) > weight(best))) best = c;
  }
  return [weight('identity') > 0 ? 'identity' : best, best];
}

/** Last-Modified in HTTP-date form (whole seconds). */
export function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  // The same snapshot's date for request after request: made once.
  if (second !== lastDate.second) lastDate = { second, text: new Date(second * 1000).toUTCString() };
  return lastDate.text;
}
let lastDate = { second: Number.NaN, text: '' };

function isFresh(headers: FastifyRequest['headers'], etag: string, modifiedAt: number): boolean {
  const inm = headers['if-none-match'];
  // If-None-Match, when present, decides alone (RFC 9110 §13.2.2); comparison is weak.
  if (inm !== undefined) return inm.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === etag);
  const ims = headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Math.floor(modifiedAt / 1000) * 1000 <= since;
}

export interface Answer {
  status: 200 | 304 | 406;
  headers: Record<string, string>;
  body: Buffer | string | null;
}

/** What to answer a GET for this document: status, headers and bytes. */
export function answerFor(req: Pick<FastifyRequest, 'headers'>, rep: Representation, headers: Record<string, string> = {}): Answer {
  const h: Record<string, string> = { vary: 'Accept-Encoding', ...headers };
  const coding = negotiateCoding(req.headers['accept-encoding'], rep.identity.length);
  if (coding === null) {
    const body = problem(406, 'not_acceptable', 'None of the content codings in Accept-Encoding is available: br, gzip and identity are.');
    return { status: 406, headers: { ...h, 'content-type': 'application/problem+json' }, body: JSON.stringify(body) };
  }
  const etag = codedEtag(rep.etag, coding);
  h.etag = etag;
  h['last-modified'] = httpDate(rep.modifiedAt);
  if (isFresh(req.headers, etag, rep.modifiedAt)) return { status: 304, headers: h, body: null };
  h['content-type'] = rep.type;
  if (coding !== 'identity') h['content-encoding'] = coding;
  return { status: 200, headers: h, body: bodyFor(rep, coding) };
}

/** Sends the answer through Fastify. */
export function sendRepresentation(
  req: FastifyRequest,
  reply: FastifyReply,
  rep: Representation,
  headers: Record<string, string> = {},
): FastifyReply {
  const a = answerFor(req, rep, headers);
  return reply
    .code(a.status)
    .headers(a.headers)
    .send(a.body ?? undefined);
}

/**
 * Recently built documents by key (host and path), so a document is compressed once per snapshot,
 * not once per request. Bounded: keys come from requests.
 */
export class RepresentationCache {
  private readonly entries = new Map<string, Representation>();
  private readonly max: number;
  constructor(max = 2000) {
    this.max = max;
  }

  get(key: string, etag: string, build: () => Representation): Representation {
    const hit = this.entries.get(key);
    if (hit?.etag === etag) return hit;
    const rep = build();
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, rep);
    return rep;
  }
}
