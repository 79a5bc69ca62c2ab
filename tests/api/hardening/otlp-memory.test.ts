// /v1/traces against memory amplification: small gzip bodies that inflate to nearly the 20 MiB
// cap, sent many at once, must not add up in the server's memory. Bytes held in flight are
// bounded per company (429) and per process (503), both with Retry-After, and the rate limiter
// counts bytes, so exports with no spans at all are paced too. The app runs in this process:
// its resident memory is sampled while the bombs land.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiResponse, type TestApp } from '../../support/test-app.ts';
import { companyWithKey } from './otlp-stream-client.ts';

const MiB = 1024 * 1024;

/** A valid OTLP/JSON export with no spans, padded with whitespace to `inflated` bytes, gzipped. */
function paddedEmptyExport(inflated: number): Buffer {
  const head = '{"resourceSpans":[]';
  return gzipSync(Buffer.concat([Buffer.from(head), Buffer.alloc(inflated - head.length - 1, 0x20), Buffer.from('}')]), { level: 9 });
}

/** Peak growth of this process's resident memory while `work` runs. */
async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - base };
  } finally {
    clearInterval(timer);
  }
}

describe.each(DB_KINDS)('OTLP ingest bounds inflated bytes in flight on %s', (db) => {
  let t: TestApp;
  const bomb = paddedEmptyExport(19 * MiB);

  beforeAll(async () => {
    t = await startTestApp({ db });
    // First use loads and compiles the ingest path (zlib, decoders): not what is measured.
    const warm = await companyWithKey(t.services, 'enterprise');
    for (let i = 0; i < 3; i++) expect((await send(warm.key, paddedEmptyExport(2 * MiB))).status).toBe(200);
  }, 60_000);
  afterAll(async () => t?.close());

  const send = (key: string, raw: Uint8Array, gzip = true): Promise<ApiResponse> =>
    t.client().request('POST', '/v1/traces', {
      raw,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
    });

  const expectRetryable = (refused: ApiResponse[]) => {
    for (const r of refused) expect(Number(r.headers.get('retry-after')), `${r.status} ${r.text}`).toBeGreaterThanOrEqual(1);
  };

  it('refuses part of 16 concurrent gzip bombs from one company, keeps memory bounded, and still serves others', async () => {
    expect(bomb.length).toBeLessThan(40 * 1024);
    const attacker = await companyWithKey(t.services, 'enterprise');
    const other = await companyWithKey(t.services);
    const { result, growth } = await peakRssGrowth(() => Promise.all(Array.from({ length: 16 }, () => send(attacker.key, bomb))));
    // 24 MiB in flight for the company and the copies of its one body being decoded (before the
    // budget, 16 inflated at once: over 500 MiB)
    expect(growth / MiB, 'RSS growth in MiB').toBeLessThan(150);
    const statuses = result.map((r) => r.status);
    expect(
      statuses.every((s) => [200, 429, 503].includes(s)),
      statuses.join(','),
    ).toBe(true);
    const refused = result.filter((r) => r.status !== 200);
    expect(refused.length, statuses.join(',')).toBeGreaterThan(0);
    expectRetryable(refused);

    const spanNs = BigInt(Date.now()) * 1_000_000n;
    const one = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: 'e'.repeat(32),
                  spanId: 'e'.repeat(16),
                  name: 'GET /',
                  kind: 2,
                  startTimeUnixNano: String(spanNs),
                  endTimeUnixNano: String(spanNs + 1_000_000n),
                },
              ],
            },
          ],
        },
      ],
    };
    const normal = await send(other.key, Buffer.from(JSON.stringify(one)), false);
    expect(normal.status).toBe(200);
    expect(normal.body).toEqual({});
  });

  it('answers 503 when bombs from several companies fill the process budget', async () => {
    const companies = await Promise.all(Array.from({ length: 4 }, () => companyWithKey(t.services, 'enterprise')));
    const { result, growth } = await peakRssGrowth(() =>
      Promise.all(companies.flatMap((c) => Array.from({ length: 4 }, () => send(c.key, bomb)))),
    );
    // 64 MiB in flight, the copies of the one body being decoded, and garbage V8 frees lazily
    // (unbounded, this burst took over 500 MiB)
    expect(growth / MiB, 'RSS growth in MiB').toBeLessThan(200);
    const statuses = result.map((r) => r.status);
    expect(
      statuses.every((s) => [200, 429, 503].includes(s)),
      statuses.join(','),
    ).toBe(true);
    expect(statuses, statuses.join(',')).toContain(503);
    expectRetryable(result.filter((r) => r.status !== 200));
  });

  it('paces exports that carry no spans by their bytes: 429 with Retry-After', async () => {
    const c = await companyWithKey(t.services); // starter: 4 MiB/s, bursts of 40 MiB
    const empty = paddedEmptyExport(4 * MiB);
    let answer: ApiResponse | undefined;
    for (let i = 0; i < 30 && answer?.status !== 429; i++) {
      answer = await send(c.key, empty);
      expect([200, 429]).toContain(answer.status);
    }
    expect(answer!.status).toBe(429);
    expectRetryable([answer!]);
  });
});
