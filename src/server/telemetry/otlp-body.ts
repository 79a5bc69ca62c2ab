// Reads an OTLP/HTTP request body: the media types and encodings the OTLP specification allows
// (protobuf or JSON, identity or gzip), and a cap on the body counted after decompression, so
// a small gzip bomb is refused like a large body. Never destroys the request stream: refused
// bytes are drained so the client still reads the answer.
import type { Readable } from 'node:stream';
import { gunzip } from 'node:zlib';
import { DomainError } from '../domain/errors.ts';

export const MAX_BODY_BYTES = 20 * 1024 * 1024;

export type OtlpFormat = 'protobuf' | 'json';

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

const tooLarge = () => new DomainError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES / (1024 * 1024)} MiB (counted after decompression).`);

function readCapped(stream: Readable, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > cap) {
        stream.off('data', onData);
        stream.off('end', onEnd);
        stream.off('error', onError);
        chunks.length = 0;
        stream.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(c);
    };
    const onEnd = () => resolve(Buffer.concat(chunks, size));
    const onError = (e: Error) => reject(e);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

function gunzipCapped(body: Buffer, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    gunzip(body, { maxOutputLength: cap }, (err, out) => {
      if (!err) return resolve(out);
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) return reject(tooLarge());
      reject(new DomainError('validation', 'The body is not valid gzip.'));
    });
  });
}

export async function readOtlpBody(stream: Readable, encoding: 'gzip' | 'identity'): Promise<Buffer> {
  const raw = await readCapped(stream, MAX_BODY_BYTES);
  return encoding === 'gzip' ? gunzipCapped(raw, MAX_BODY_BYTES) : raw;
}
