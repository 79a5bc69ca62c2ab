// OTLP/HTTP trace ingest (POST /v1/traces): key, media type, declared size and rate from the
// headers alone, then body, decode, store. The company is the key's, whatever the resource
// attributes say. The answer follows the OTLP specification: the request's encoding, with
// partialSuccess when some spans were refused. Every byte read is charged to the company's rate
// (even of a refused body), and held bytes count against the in-memory budget until answered.
// A browser page (Origin sent) must use a key that lists its origin (browser-origins.ts).
import { ingestSpansTotal } from '../../metrics/platform.ts';
import type { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { authenticateIngestKey } from './api-keys.ts';
import { checkKeyOrigin } from './browser-origins.ts';
import { checkDeclaredLength, checkEncoding, formatOf, readOtlpBody } from '../../telemetry/otlp-body.ts';
import { decodeJson, decodeProtobuf, MalformedOtlp, type DecodeResult } from '../../telemetry/otlp-spans.ts';
import { telemetryOf } from '../../telemetry/service.ts';

const require = createRequire(import.meta.url);
const generated = require('@opentelemetry/otlp-transformer/build/src/generated/root.js') as {
  opentelemetry: {
    proto: { collector: { trace: { v1: { ExportTraceServiceResponse: { encode(m: object): { finish(): Uint8Array } } } } } };
  };
};
const ExportTraceServiceResponse = generated.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;

export interface IngestInput {
  authorization: string | undefined;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  contentLength: string | undefined;
  /** The Origin header: sent by browsers only, checked against the key's allowed origins */
  origin: string | undefined;
  /** Called once the origin is allowed, before anything else can fail, so that every answer
   * from here on (429, 413 and the like included) is readable by the page */
  allowOrigin(origin: string): void;
  body: Readable;
}

export interface IngestAnswer {
  contentType: 'application/x-protobuf' | 'application/json';
  body: Buffer | { partialSuccess?: { rejectedSpans: string; errorMessage: string } };
  accepted: number;
  rejected: number;
}

export async function ingestTraces(ctx: Ctx, input: IngestInput): Promise<IngestAnswer> {
  const services = ctx.services;
  const { companyId, plan, allowedOrigins } = await authenticateIngestKey(services, input.authorization);
  if (input.origin !== undefined) {
    checkKeyOrigin(input.origin, allowedOrigins);
    input.allowOrigin(input.origin);
  }
  const format = formatOf(input.contentType);
  const encoding = checkEncoding(input.contentEncoding);
  checkDeclaredLength(input.contentLength);
  const { limiter, writer, budget, limits } = telemetryOf(services);
  const wait = limiter.retryAfter(companyId, plan, services.now());
  if (wait !== null)
    throw new DomainError('rate_limited', `Over this company's ingest rate (spans or bytes a second); retry in ${wait} s.`, {
      retryAfter: wait,
    });

  const held = budget.open(companyId);
  let bytes = 0;
  let spans = 0;
  let stored = false;
  try {
    const body = await readOtlpBody(input.body, encoding, {
      timeoutMs: limits.bodyTimeoutMs,
      reserve: (n) => {
        bytes += n;
        held.take(n);
      },
    });
    let decoded: DecodeResult;
    try {
      decoded = format === 'protobuf' ? decodeProtobuf(body, services.now()) : decodeJson(body, services.now());
    } catch (e) {
      if (e instanceof MalformedOtlp) throw new DomainError('validation', e.message);
      throw e;
    }
    spans = decoded.spans.length + decoded.rejected;
    // 503 is retryable for OTLP exporters: a full queue or a failed write loses nothing for good.
    if (writer.saturated) throw new DomainError('unavailable', 'Ingest is busy; retry shortly.', { retryAfter: 5 });
    try {
      await writer.write(companyId, decoded.spans);
    } catch (e) {
      throw new DomainError('unavailable', 'The spans could not be stored; retry shortly.', { retryAfter: 5, cause: e });
    }
    ingestSpansTotal.inc({ outcome: 'accepted' }, decoded.spans.length);
    ingestSpansTotal.inc({ outcome: 'rejected' }, decoded.rejected);
    stored = true;
    return answer(format, decoded);
  } finally {
    if (!stored && spans > 0) ingestSpansTotal.inc({ outcome: 'refused' }, spans);
    held.release();
    limiter.take(companyId, plan, { spans, bytes }, services.now());
  }
}

function answer(format: 'protobuf' | 'json', decoded: DecodeResult): IngestAnswer {
  const partial =
    decoded.rejected > 0
      ? { rejectedSpans: String(decoded.rejected), errorMessage: `${decoded.rejected} span(s) rejected: ${decoded.rejectReason}.` }
      : undefined;
  if (format === 'protobuf') {
    const msg = partial ? { partialSuccess: { rejectedSpans: decoded.rejected, errorMessage: partial.errorMessage } } : {};
    return {
      contentType: 'application/x-protobuf',
      body: Buffer.from(ExportTraceServiceResponse.encode(msg).finish()),
      accepted: decoded.spans.length,
      rejected: decoded.rejected,
    };
  }
  return {
    contentType: 'application/json',
    body: partial ? { partialSuccess: partial } : {},
    accepted: decoded.spans.length,
    rejected: decoded.rejected,
  };
}
