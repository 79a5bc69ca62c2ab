// OTLP trace requests (protobuf or JSON) to span rows. Protobuf is decoded by the code the
// OpenTelemetry project generated from the official opentelemetry-proto files with protobufjs
// (shipped in @opentelemetry/otlp-transformer); the JSON mapping follows the OTLP/JSON rules
// (hex ids, integer enums, 64-bit integers as decimal strings or numbers, unknown fields
// ignored). Spans that cannot be stored are counted as rejected for the partial-success answer.
import { createRequire } from 'node:module';
import type { SpansTable } from '../db/schema/telemetry.ts';

const require = createRequire(import.meta.url);
const generated = require('@opentelemetry/otlp-transformer/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: { decode(b: Uint8Array): unknown } } } } } };
};
const ExportTraceServiceRequest = generated.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export const SPAN_KIND = { unspecified: 0, internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;
export const STATUS_ERROR = 2;
/** How far ahead of our clock a span may start (exporters' clocks drift a little) */
export const FUTURE_SKEW_MS = 10 * 60_000;

/** A span ready to store: the spans row without its company (that comes from the ingest key). */
export type DecodedSpan = Omit<SpansTable, 'company_id'>;

export interface DecodeResult {
  spans: DecodedSpan[];
  rejected: number;
  /** Why the first rejected span was refused */
  rejectReason: string | null;
}

export class MalformedOtlp extends Error {}

const MAX_NAME = 500;
const MAX_SERVICE = 200;
const MAX_MESSAGE = 2000;
const MAX_JSON = 16 * 1024;
const MAX_EVENTS = 32;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
const HEX = /^[0-9a-f]+$/;

/**
 * Which spans are requests for RED: the entry points of a service, i.e. SERVER and CONSUMER
 * spans, plus root spans (no parent) of any kind, so a service instrumented without span
 * kinds still gets RED figures. Outgoing CLIENT/PRODUCER and INTERNAL child spans are not.
 */
export function isRequest(kind: number, parentSpanId: string | null): boolean {
  return kind === SPAN_KIND.server || kind === SPAN_KIND.consumer || parentSpanId === null;
}

/** An error: status ERROR, or an HTTP answer of 500 or more. */
export function isError(statusCode: number, httpStatus: number | null): boolean {
  return statusCode === STATUS_ERROR || (httpStatus !== null && httpStatus >= 500);
}

type Any = Record<string, any>;

function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return Number(v);
  if (v && typeof v === 'object' && 'low' in v && 'high' in v) {
    const l = v as { low: number; high: number };
    return (l.high >>> 0) * 4294967296 + (l.low >>> 0);
  }
  return NaN;
}

/** Nanoseconds (Long, decimal string or number) to whole microseconds. */
function nanosToMicros(v: unknown): number {
  if (typeof v === 'string') {
    if (!/^\d{1,20}$/.test(v)) return NaN;
    return v.length <= 3 ? 0 : Number(v.slice(0, -3));
  }
  return Math.floor(num(v) / 1000);
}

function anyValue(v: Any | null | undefined, depth = 0): unknown {
  if (v == null || depth > 8) return null;
  if (v.stringValue != null) return String(v.stringValue);
  if (v.boolValue != null) return Boolean(v.boolValue);
  if (v.intValue != null) return num(v.intValue);
  if (v.doubleValue != null) return Number(v.doubleValue);
  if (v.arrayValue != null) return ((v.arrayValue.values ?? []) as Any[]).map((x) => anyValue(x, depth + 1));
  if (v.kvlistValue != null) return keyValues(v.kvlistValue.values, depth + 1);
  if (v.bytesValue != null) return typeof v.bytesValue === 'string' ? v.bytesValue : Buffer.from(v.bytesValue).toString('base64');
  return null;
}

function keyValues(list: Any[] | null | undefined, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) if (kv && typeof kv.key === 'string') out[kv.key] = anyValue(kv.value, depth);
  return out;
}

function capJson(value: unknown, empty: string): string {
  const s = JSON.stringify(value);
  return s.length <= MAX_JSON ? s : empty;
}

type IdOf = (v: unknown) => string | null;

const hexOfBytes: IdOf = (v) =>
  v instanceof Uint8Array && v.length > 0 ? Buffer.from(v.buffer, v.byteOffset, v.length).toString('hex') : null;
const hexOfJson: IdOf = (v) => (typeof v === 'string' && v !== '' ? v.toLowerCase() : null);

function toSpan(s: Any, service: string, version: string | null, idOf: IdOf, latestStartUs: number): DecodedSpan | string {
  const traceId = idOf(s.traceId);
  const spanId = idOf(s.spanId);
  if (traceId?.length !== 32 || !HEX.test(traceId) || traceId === ZERO_TRACE) return 'invalid traceId';
  if (spanId?.length !== 16 || !HEX.test(spanId) || spanId === ZERO_SPAN) return 'invalid spanId';
  let parent = idOf(s.parentSpanId);
  if (parent !== null && (parent.length !== 16 || !HEX.test(parent))) return 'invalid parentSpanId';
  if (parent === ZERO_SPAN) parent = null;
  const startUs = nanosToMicros(s.startTimeUnixNano);
  const endUs = nanosToMicros(s.endTimeUnixNano);
  if (!Number.isFinite(startUs) || !Number.isFinite(endUs) || startUs <= 0 || endUs < startUs) return 'invalid start or end time';
  // A skewed or hostile clock must not fill "the last hour" ahead of time or outlive retention.
  if (startUs > latestStartUs) return `start time more than ${FUTURE_SKEW_MS / 60_000} minutes in the future`;
  const kind = Number(s.kind ?? 0);
  if (!Number.isInteger(kind) || kind < 0 || kind > 5) return 'invalid kind';
  const statusCode = Number(s.status?.code ?? 0);
  const attributes = keyValues(s.attributes);
  // The resource's service.version is kept on each span (resources are not stored): the
  // incident evidence panel tells a new version deployed shortly before an outage by it.
  if (version !== null && attributes['service.version'] === undefined) attributes['service.version'] = version;
  const rawHttp = attributes['http.response.status_code'] ?? attributes['http.status_code'];
  const httpStatus =
    typeof rawHttp === 'number' && Number.isInteger(rawHttp)
      ? rawHttp
      : typeof rawHttp === 'string' && /^\d{3}$/.test(rawHttp)
        ? Number(rawHttp)
        : null;
  const error = isError(statusCode, httpStatus);
  const events: Array<{ name: string; time: number; attributes: Record<string, unknown> }> = [];
  let exceptionMessage: string | null = null;
  for (const e of (Array.isArray(s.events) ? s.events : []) as Any[]) {
    const attrs = keyValues(e.attributes);
    if (e.name === 'exception' && exceptionMessage === null && attrs['exception.message'] != null)
      exceptionMessage = String(attrs['exception.message']);
    if (events.length < MAX_EVENTS) {
      const atUs = nanosToMicros(e.timeUnixNano);
      events.push({
        name: String(e.name ?? '').slice(0, MAX_NAME),
        time: Math.floor((Number.isFinite(atUs) && atUs > 0 ? atUs : startUs) / 1000),
        attributes: attrs,
      });
    }
  }
  const statusMessage = typeof s.status?.message === 'string' && s.status.message !== '' ? s.status.message : null;
  const message = error
    ? (statusMessage ?? exceptionMessage ?? (httpStatus !== null && httpStatus >= 500 ? `HTTP ${httpStatus}` : null))
    : null;
  return {
    trace_id: traceId,
    span_id: spanId,
    parent_span_id: parent,
    name: String(s.name ?? '').slice(0, MAX_NAME) || '(unnamed)',
    service,
    kind,
    start_us: startUs,
    duration_ms: (endUs - startUs) / 1000,
    status_code: statusCode === 1 || statusCode === 2 ? statusCode : 0,
    http_status: httpStatus,
    is_error: Boolean(error),
    is_request: isRequest(kind, parent),
    error_message: message ? message.slice(0, MAX_MESSAGE) : null,
    attributes: capJson(attributes, '{}'),
    events: capJson(events, '[]'),
  };
}

function collect(request: Any, idOf: IdOf, nowMs: number): DecodeResult {
  const latestStartUs = (nowMs + FUTURE_SKEW_MS) * 1000;
  const out: DecodeResult = { spans: [], rejected: 0, rejectReason: null };
  const resourceSpans = request?.resourceSpans;
  if (resourceSpans != null && !Array.isArray(resourceSpans)) throw new MalformedOtlp('resourceSpans must be an array');
  for (const rs of (resourceSpans ?? []) as Any[]) {
    const resource = keyValues(rs?.resource?.attributes);
    const name = resource['service.name'];
    const service = (typeof name === 'string' && name !== '' ? name : 'unknown_service').slice(0, MAX_SERVICE);
    const rawVersion = resource['service.version'];
    const version = typeof rawVersion === 'string' && rawVersion !== '' ? rawVersion.slice(0, MAX_SERVICE) : null;
    // Exporters before OTLP 1.0 (e.g. OpenTelemetry JS up to 0.2x) name the scope list
    // instrumentationLibrarySpans; its spans are the same, so they are read as scopeSpans.
    // When both are present scopeSpans wins, as the protocol said in the transition.
    const scopes = Array.isArray(rs?.scopeSpans)
      ? rs.scopeSpans
      : Array.isArray(rs?.instrumentationLibrarySpans)
        ? rs.instrumentationLibrarySpans
        : [];
    for (const ss of scopes as Any[]) {
      for (const s of (Array.isArray(ss?.spans) ? ss.spans : []) as Any[]) {
        const r = s && typeof s === 'object' ? toSpan(s, service, version, idOf, latestStartUs) : 'not an object';
        if (typeof r === 'string') {
          out.rejected++;
          out.rejectReason ??= r;
        } else out.spans.push(r);
      }
    }
  }
  return out;
}

export function decodeProtobuf(body: Uint8Array, nowMs = Date.now()): DecodeResult {
  let request: unknown;
  try {
    request = ExportTraceServiceRequest.decode(body);
  } catch (e) {
    throw new MalformedOtlp(`The body is not a valid OTLP protobuf ExportTraceServiceRequest (${(e as Error).message}).`);
  }
  return collect(request as Any, hexOfBytes, nowMs);
}

export function decodeJson(body: Uint8Array, nowMs = Date.now()): DecodeResult {
  let request: unknown;
  try {
    request = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.length).toString('utf8'));
  } catch {
    throw new MalformedOtlp('The body is not valid JSON.');
  }
  if (!request || typeof request !== 'object' || Array.isArray(request))
    throw new MalformedOtlp('The body must be an OTLP ExportTraceServiceRequest JSON object.');
  return collect(request as Any, hexOfJson, nowMs);
}
