// Reads an OTLP/HTTP request body: the media types and encodings the OTLP specification allows
// (protobuf or JSON, identity or gzip), inflated as it streams in, bounded three ways: 20 MiB
// counted after decompression (a small gzip bomb is refused like a large body), the bytes the
// caller may hold in memory (reserve() throws when the company or process is full), and a
// total time. A refused body is left unread, never drained: the route closes the connection.
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { DomainError } from '../domain/errors.ts';

export const MAX_BODY_BYTES = 20 * 1024 * 1024;
/** How long a whole body may take to arrive (a slow trickle holds memory and a connection). */
export const BODY_TIMEOUT_MS = 30_000;

export type OtlpFormat = 'protobuf' | 'json';

/** The body did not arrive in time: the route answers 408 (no domain meaning, a transport one). */
export class BodyTimeout extends Error {
  constructor(ms: number) {
    super(`The request body did not arrive within ${ms / 1000} s.`);
  }
}

export function formatOf(contentType: string | undefined): OtlpFormat {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  throw new DomainError('unsupported_media_type', `Unsupported content type '${type}'; send application/x-protobuf or application/json.`);
}

export function checkEncoding(contentEncoding: string | undefined): 'gzip' | 'identity' {
  const enc = (contentEncoding ?? '').trim().toLowerCase();
  if (enc === '' || enc === 'identity') return 'identity';
  if (enc === 'gzip') return 'gzip';
  throw new DomainError('unsupported_media_type', `Unsupported content encoding '${enc}'; send gzip or no encoding.`);
}

export const tooLarge = () =>
  new DomainError(
    'payload_too_large',
    `The request body is larger than ${MAX_BODY_BYTES / (1024 * 1024)} MiB (counted after decompression).`,
  );

/** A declared Content-Length over the cap is refused before a byte is read. */
export function checkDeclaredLength(contentLength: string | undefined): void {
  if (contentLength !== undefined && /^\d+$/.test(contentLength) && Number(contentLength) > MAX_BODY_BYTES) throw tooLarge();
}

export interface ReadOptions {
  timeoutMs: number;
  /** Called with each chunk's size before it is kept; throws to refuse the body. */
  reserve: (bytes: number) => void;
}

export function readOtlpBody(req: Readable, encoding: 'gzip' | 'identity', opts: ReadOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let wire = 0;
    let settled = false;
    const inflater = encoding === 'gzip' ? createGunzip({ chunkSize: 64 * 1024 }) : null;
    const out: Readable = inflater ?? req;

    const stop = (err: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onWire);
      req.off('close', onClose);
      req.off('error', onCut);
      out.off('data', onData);
      out.off('end', onEnd);
      if (inflater) {
        req.unpipe(inflater);
        inflater.off('error', onBadGzip);
        inflater.on('error', () => {});
        inflater.destroy();
      }
      if (err) {
        req.pause();
        chunks.length = 0;
        reject(err);
      } else {
        resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
        chunks.length = 0;
      }
    };
    const onData = (c: Buffer) => {
      if (settled) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) return stop(tooLarge());
      try {
        opts.reserve(c.length);
      } catch (e) {
        return stop(e as Error);
      }
      chunks.push(c);
    };
    const onWire = (c: Buffer) => {
      wire += c.length;
      if (wire > MAX_BODY_BYTES) stop(tooLarge());
    };
    const onEnd = () => stop(null);
    const onCut = () => stop(new DomainError('validation', 'The request body was cut short.'));
    const onClose = () => {
      if (!req.readableEnded) onCut();
    };
    const onBadGzip = () => stop(new DomainError('validation', 'The body is not valid gzip.'));
    const timer = setTimeout(() => stop(new BodyTimeout(opts.timeoutMs)), opts.timeoutMs);

    req.on('close', onClose);
    req.on('error', onCut);
    out.on('end', onEnd);
    if (inflater) {
      inflater.on('error', onBadGzip);
      req.on('data', onWire);
      req.pipe(inflater);
    }
    out.on('data', onData);
  });
}
