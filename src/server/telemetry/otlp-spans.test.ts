import { describe, expect, it } from 'vitest';
import { decodeJson, decodeProtobuf, isError, isRequest, MalformedOtlp } from './otlp-spans.ts';
import { rollupsOf, minuteOf } from './rollups.ts';
import { LatencySketch } from '../../lib/latency-sketch.ts';

const T = 'AbCdEf0123456789abcdef0123456789';
const body = (spans: unknown[], resource: unknown = { attributes: [{ key: 'service.name', value: { stringValue: 'api' } }] }) =>
  Buffer.from(JSON.stringify({ resourceSpans: [{ resource, scopeSpans: [{ scope: { name: 's' }, spans }] }] }));
const span = (over: Record<string, unknown> = {}) => ({
  traceId: T,
  spanId: '0102030405060708',
  name: 'GET /x',
  kind: 2,
  startTimeUnixNano: '1700000000000000000',
  endTimeUnixNano: '1700000000123456789',
  ...over,
});

describe('OTLP/JSON mapping', () => {
  it('maps ids, times, kind, service and attributes', () => {
    const r = decodeJson(
      body([
        span({
          attributes: [
            { key: 'http.response.status_code', value: { intValue: '200' } },
            { key: 'ok', value: { boolValue: true } },
            { key: 'ratio', value: { doubleValue: 0.5 } },
            { key: 'tags', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: 2 }] } } },
            { key: 'nested', value: { kvlistValue: { values: [{ key: 'k', value: { stringValue: 'v' } }] } } },
          ],
        }),
      ]),
    );
    expect(r.rejected).toBe(0);
    expect(r.spans).toHaveLength(1);
    const s = r.spans[0];
    expect(s).toMatchObject({
      trace_id: T.toLowerCase(),
      span_id: '0102030405060708',
      parent_span_id: null,
      service: 'api',
      kind: 2,
      start_us: 1700000000000000,
      http_status: 200,
      is_error: false,
      is_request: true,
      status_code: 0,
    });
    expect(s.duration_ms).toBeCloseTo(123.456, 6);
    expect(JSON.parse(s.attributes)).toEqual({
      'http.response.status_code': 200,
      ok: true,
      ratio: 0.5,
      tags: ['a', 2],
      nested: { k: 'v' },
    });
  });

  it('accepts 64-bit integers as numbers too, and defaults the service', () => {
    const r = decodeJson(body([span({ startTimeUnixNano: 1700000000000000000, endTimeUnixNano: 1700000001000000000 })], {}));
    expect(r.spans[0].service).toBe('unknown_service');
    expect(r.spans[0].duration_ms).toBeCloseTo(1000, 0);
  });

  it('takes the error message from the status, else the exception event, else the HTTP code', () => {
    const r = decodeJson(
      body([
        span({ spanId: '00000000000000a1', status: { code: 2, message: 'db down' } }),
        span({
          spanId: '00000000000000a2',
          status: { code: 2 },
          events: [
            {
              name: 'exception',
              timeUnixNano: '1700000000001000000',
              attributes: [{ key: 'exception.message', value: { stringValue: 'kaput' } }],
            },
          ],
        }),
        span({ spanId: '00000000000000a3', attributes: [{ key: 'http.status_code', value: { intValue: 502 } }] }),
        span({ spanId: '00000000000000a4', attributes: [{ key: 'http.response.status_code', value: { intValue: 404 } }] }),
      ]),
    );
    expect(r.spans.map((s) => [s.is_error, s.error_message])).toEqual([
      [true, 'db down'],
      [true, 'kaput'],
      [true, 'HTTP 502'],
      [false, null],
    ]);
    expect(JSON.parse(r.spans[1].events)).toEqual([
      { name: 'exception', time: 1700000000001, attributes: { 'exception.message': 'kaput' } },
    ]);
  });

  it('counts entry points as requests: server, consumer and root spans', () => {
    expect(isRequest(2, 'aa')).toBe(true);
    expect(isRequest(5, 'aa')).toBe(true);
    expect(isRequest(3, 'aa')).toBe(false);
    expect(isRequest(1, 'aa')).toBe(false);
    expect(isRequest(3, null)).toBe(true);
    expect(isError(1, 503)).toBe(true);
    expect(isError(0, 499)).toBe(false);
    expect(isError(2, null)).toBe(true);
  });

  it('rejects spans that cannot be stored and keeps the others', () => {
    const r = decodeJson(
      body([
        span({ spanId: '00000000000000b1' }),
        span({ spanId: '00000000000000b2', traceId: '00000000000000000000000000000000' }),
        span({ spanId: 'zz' }),
        span({ spanId: '00000000000000b3', endTimeUnixNano: '1' }),
        span({ spanId: '00000000000000b4', kind: 9 }),
        'not a span',
      ]),
    );
    expect(r.spans.map((s) => s.span_id)).toEqual(['00000000000000b1']);
    expect(r.rejected).toBe(5);
    expect(r.rejectReason).toBe('invalid traceId');
  });

  it('rejects spans that start more than ten minutes after the server clock', () => {
    const now = 1_700_000_000_000; // the fixture spans start at this instant
    const at = (ms: number) => String(BigInt(ms) * 1_000_000n);
    const r = decodeJson(
      body([
        span({ spanId: '00000000000000c1', startTimeUnixNano: at(now + 9 * 60_000), endTimeUnixNano: at(now + 9 * 60_000 + 5) }),
        span({ spanId: '00000000000000c2', startTimeUnixNano: at(now + 11 * 60_000), endTimeUnixNano: at(now + 11 * 60_000 + 5) }),
      ]),
      now,
    );
    expect(r.spans.map((s) => s.span_id)).toEqual(['00000000000000c1']);
    expect(r.rejectReason).toBe('start time more than 10 minutes in the future');
  });

  it('reads pre-1.0 exports (instrumentationLibrarySpans); scopeSpans wins when both are sent', () => {
    const old = (extra: Record<string, unknown> = {}) =>
      Buffer.from(
        JSON.stringify({
          resourceSpans: [
            {
              resource: { attributes: [{ key: 'service.name', value: { stringValue: 'legacy' } }] },
              instrumentationLibrarySpans: [{ instrumentationLibrary: { name: 'old', version: '0.24.0' }, spans: [span()] }],
              ...extra,
            },
          ],
        }),
      );
    const r = decodeJson(old(), 1_700_000_000_000);
    expect(r.spans.map((s) => [s.service, s.name, s.duration_ms])).toEqual([['legacy', 'GET /x', 123.456]]);
    const both = decodeJson(old({ scopeSpans: [{ spans: [span({ name: 'new' })] }] }), 1_700_000_000_000);
    expect(both.spans.map((s) => s.name)).toEqual(['new']);
  });

  it('refuses what is not an export request', () => {
    expect(() => decodeJson(Buffer.from('[1,2]'))).toThrow(MalformedOtlp);
    expect(() => decodeJson(Buffer.from('{"resourceSpans": 3}'))).toThrow(MalformedOtlp);
    expect(() => decodeJson(Buffer.from('nope'))).toThrow(MalformedOtlp);
    expect(() => decodeProtobuf(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]))).toThrow(MalformedOtlp);
    expect(decodeJson(Buffer.from('{}'))).toEqual({ spans: [], rejected: 0, rejectReason: null });
    expect(decodeProtobuf(new Uint8Array())).toEqual({ spans: [], rejected: 0, rejectReason: null });
  });
});

describe('RED rollups of a batch', () => {
  it('counts only requests, per minute, service and operation, with a latency sketch', () => {
    const base = 1_700_000_080_000_000; // µs, 40 s into a minute
    const rows = rollupsOf('c1', [
      { service: 'api', name: 'GET /x', start_us: base, duration_ms: 3, is_error: false, is_request: true },
      { service: 'api', name: 'GET /x', start_us: base + 1_000_000, duration_ms: 120, is_error: true, is_request: true },
      { service: 'api', name: 'GET /x', start_us: base + 30_000_000, duration_ms: 8, is_error: false, is_request: true },
      { service: 'api', name: 'SELECT', start_us: base, duration_ms: 1, is_error: true, is_request: false },
    ]);
    expect(rows).toHaveLength(2);
    const first = rows.find((r) => r.minute_ms === minuteOf(base))! as Record<string, unknown>;
    expect(first).toMatchObject({
      company_id: 'c1',
      service: 'api',
      operation: 'GET /x',
      requests: 2,
      errors: 1,
      sum_ms: 123,
    });
    const sketch = LatencySketch.parse(String(first.hist));
    expect(sketch.total).toBe(2);
    expect(sketch.quantile(0.5) / 3).toBeCloseTo(1, 1);
    expect(sketch.quantile(1) / 120).toBeCloseTo(1, 1);
    expect(minuteOf(base) % 60_000).toBe(0);
  });
});
