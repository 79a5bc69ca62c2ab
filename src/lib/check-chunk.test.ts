// The check chunk codec gives back exactly what it was given (property test over seeded random
// input plus edge cases, with checks from several locations interleaved), a steady monitor's
// hour costs a few bytes per check, from one location or several, and version-1 chunks (written
// before locations) still decode.
import { describe, expect, it } from 'vitest';
import { decodeChecks, encodeChecks, timingsText, type ChunkCheck } from './check-chunk.ts';
import { seededRandom } from './seeded-random.ts';

const round = (ms: number) => Math.round(ms * 100) / 100;
const T0 = Date.UTC(2026, 5, 1, 12);

function randomChecks(seed: number): ChunkCheck[] {
  const r = seededRandom(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const n = Math.floor(r() * 120);
  let t = T0 + Math.floor(r() * 1e6);
  const out: ChunkCheck[] = [];
  // Locations: one, a steady round robin of two to four, a random mix, or an odd large number.
  const spread = pick(['one', 'round', 'round', 'mix']);
  const locs = pick([[0], [0, 1, 2], [3, 1], [7, 0, 2, 5], [0, 2 ** 31 - 1]]);
  const weird = [0, -0, 1e-9, 0.1 + 0.2, Number.MAX_VALUE, 1e15, 123456789.123, -5, NaN, Infinity, 2 ** 53];
  for (let i = 0; i < n; i++) {
    t += pick([60_000, 60_000, 60_000 + Math.floor(r() * 40) - 20, 0, -1500, Math.floor(r() * 1e9)]);
    const ms = r() < 0.1 ? null : r() < 0.1 ? pick(weird) : round(r() * pick([5, 300, 30_000]));
    const phases: Record<string, number> = {};
    for (const p of ['dns', 'connect', 'tls', 'ttfb'])
      if (r() < 0.6) phases[p] = r() < 0.05 ? pick(weird.filter(Number.isFinite)) : round(r() * 200);
    if (r() < 0.9) phases.total = r() < 0.7 && ms !== null && Number.isFinite(ms) ? ms : round(r() * 500);
    const timings = pick([
      null,
      JSON.stringify(phases),
      JSON.stringify(phases),
      '{"total":1,"dns":0.5}',
      '{"dns":null,"total":3}',
      '{"total":2,"extra":"x"}',
      'not json',
      '[1,2]',
    ]);
    out.push({
      checked_at: t,
      status: pick(['operational', 'operational', 'degraded', 'down', 'unknown', 'ünknown ✓']),
      response_time_ms: ms,
      http_code: pick([200, 200, 200, null, 301, 503, 0, 65535, -1, 1.5]),
      error: pick([
        null,
        null,
        null,
        'Connection refused',
        'Timed out after 5000 ms',
        '',
        'e\u0301 — 日本語 🚀'.repeat(40),
        'lone \ud800 surrogate',
      ]),
      timings,
      cert_expires_at: pick([null, T0 + 90 * 86_400_000, T0 + 89 * 86_400_000, 0, -86_400_000]),
      location: spread === 'one' ? locs[0] : spread === 'round' ? locs[i % locs.length] : pick(locs),
    });
  }
  return out;
}

describe('check chunks', () => {
  // 400 chunks (about 24,000 checks): every block of the codec (check-chunk.ts, packed-ints.ts)
  // that a well-formed chunk can reach has run by seed 3 (V8 block coverage), and each odd value
  // of randomChecks appears in every column many times over. Almost all the time goes to
  // encoding (bestOrder tries each Golomb order per column), so 2,000 chunks took 4 s on a quiet
  // machine and 40 s under load; 400 take under a second. For a deeper run after changing the
  // codec: CHECK_CHUNK_SEEDS=20000 npx vitest run src/lib/check-chunk.test.ts
  const seeds = Number(process.env.CHECK_CHUNK_SEEDS ?? 400);
  it(`decode to exactly the checks encoded, for ${seeds} random chunks`, () => {
    for (let seed = 1; seed <= seeds; seed++) {
      const checks = randomChecks(seed);
      const back = decodeChecks(encodeChecks(checks));
      expect(back, `seed ${seed}`).toStrictEqual(checks);
    }
  });

  it('keep nulls, zero, huge and sub-hundredth latencies, long unicode errors and duplicate or backward times', () => {
    const base: ChunkCheck = {
      checked_at: T0,
      status: 'operational',
      response_time_ms: null,
      http_code: null,
      error: null,
      timings: null,
      cert_expires_at: null,
      location: 0,
    };
    const checks: ChunkCheck[] = [
      base,
      { ...base, checked_at: T0 }, // the same millisecond again
      { ...base, checked_at: T0 - 3_600_000, response_time_ms: 0 },
      { ...base, checked_at: 2 ** 49, response_time_ms: 86_400_000.99, http_code: 599 },
      { ...base, checked_at: -(2 ** 49), response_time_ms: 0.001, error: 'x'.repeat(300) },
      { ...base, response_time_ms: 12.34, timings: '{"dns":1.2,"connect":3.4,"tls":5.6,"ttfb":10.01,"total":12.34}' },
      { ...base, response_time_ms: 12.34, timings: '{"total":12.35}' },
      { ...base, error: '🚀'.repeat(150), status: 'down' },
      { ...base, cert_expires_at: Number.MAX_SAFE_INTEGER },
      { ...base, location: 2 ** 31 - 1, checked_at: 2 ** 49 }, // a new location's first check far from the chunk's first
      { ...base, location: 4, checked_at: -(2 ** 49) },
      { ...base, location: 4, checked_at: 2 ** 49 },
    ];
    expect(decodeChecks(encodeChecks(checks))).toStrictEqual(checks);
    expect(decodeChecks(encodeChecks([]))).toStrictEqual([]);
  });

  it('refuse times that are not whole milliseconds in range, and damaged chunks', () => {
    const one = (checked_at: number): ChunkCheck[] => [
      { checked_at, status: 'up', response_time_ms: null, http_code: null, error: null, timings: null, cert_expires_at: null, location: 0 },
    ];
    expect(() => encodeChecks(one(1.5))).toThrow(RangeError);
    expect(() => encodeChecks(one(2 ** 50))).toThrow(RangeError);
    for (const location of [-1, 0.5, 2 ** 31, NaN]) expect(() => encodeChecks([{ ...one(T0)[0], location }])).toThrow(/location/);
    const chunk = encodeChecks(randomChecks(7));
    expect(() => decodeChecks(chunk.subarray(0, chunk.length - 1))).toThrow(RangeError);
    expect(() => decodeChecks(Uint8Array.of(99, 0, 0))).toThrow(/version/);
  });

  it('store an hour of a steady HTTP monitor in a few bytes per check', () => {
    const r = seededRandom(42);
    const checks: ChunkCheck[] = [];
    for (let i = 0; i < 60; i++) {
      const dns = round(1 + r() * 2);
      const connect = round(dns + 10 + r() * 3);
      const tls = round(connect + 20 + r() * 5);
      const ttfb = round(tls + 80 + r() * 30);
      const total = round(ttfb + r() * 2);
      checks.push({
        checked_at: T0 + i * 60_000 + Math.floor(r() * 20),
        status: 'operational',
        response_time_ms: total,
        http_code: 200,
        error: null,
        timings: JSON.stringify({ dns, connect, tls, ttfb, total }),
        cert_expires_at: T0 + 80 * 86_400_000,
        location: 0,
      });
    }
    const chunk = encodeChecks(checks);
    expect(decodeChecks(chunk)).toStrictEqual(checks);
    expect(chunk.length / checks.length).toBeLessThan(9);
  });

  it('store timings built in another key order (the http checker: total first) as columns once written by timingsText', () => {
    expect(timingsText({ total: 4.5, dns: 0.04, connect: 0.28, ttfb: 4.44, extra: 1 })).toBe(
      '{"dns":0.04,"connect":0.28,"ttfb":4.44,"total":4.5,"extra":1}',
    );
    const r = seededRandom(27);
    const asBuilt: Array<Record<string, number>> = [];
    for (let i = 0; i < 60; i++) {
      const t: Record<string, number> = { total: 0 };
      t.dns = round(r() * 0.1);
      t.connect = round(0.2 + r() * 0.5);
      t.ttfb = round(t.connect + 1 + r() * 3);
      t.total = round(t.ttfb + r() * 0.2);
      asBuilt.push(t);
    }
    const hour = (text: (t: Record<string, number>) => string): ChunkCheck[] =>
      asBuilt.map((t, i) => ({
        checked_at: T0 + i * 60_000 + Math.floor(r() * 20),
        status: 'operational',
        response_time_ms: t.total,
        http_code: 200,
        error: null,
        timings: text(t),
        cert_expires_at: null,
        location: 0,
      }));
    const ordered = hour(timingsText);
    const chunk = encodeChecks(ordered);
    expect(decodeChecks(chunk)).toStrictEqual(ordered);
    expect(ordered.map((c) => JSON.parse(c.timings!))).toEqual(asBuilt);
    expect(chunk.length / ordered.length).toBeLessThan(8);
    // As built, each check's timings are a text of their own in the chunk.
    expect(encodeChecks(hour((t) => JSON.stringify(t))).length / ordered.length).toBeGreaterThan(40);
  });

  it('store an hour of three locations checking one monitor, interleaved, in as few bytes a check as one location', () => {
    // Each location is a steady series of its own: its own network latency (Frankfurt 12 ms,
    // Virginia 95 ms, Singapore 180 ms), starting a few seconds apart on the same 60 s interval.
    const r = seededRandom(3);
    const steady = (offset: number, base: number, location: number, i: number): ChunkCheck => {
      const total = round(base + r() * 4);
      return {
        checked_at: T0 + offset + i * 60_000 + Math.floor(r() * 20),
        status: 'operational',
        response_time_ms: total,
        http_code: 200,
        error: null,
        timings: JSON.stringify({ dns: round(0.5 + r()), connect: round(base / 3 + r()), ttfb: round(total - r()), total }),
        cert_expires_at: null,
        location,
      };
    };
    const alone: ChunkCheck[] = [];
    const three: ChunkCheck[] = [];
    for (let i = 0; i < 60; i++) {
      alone.push(steady(0, 12, 0, i));
      three.push(steady(0, 12, 0, i), steady(7_000, 95, 2, i), steady(13_000, 180, 5, i));
    }
    const one = encodeChecks(alone);
    const all = encodeChecks(three);
    expect(decodeChecks(all)).toStrictEqual(three);
    expect(all.length / three.length).toBeLessThan(8);
    // At most a tenth more a check than one location alone: interleaving costs almost nothing.
    expect(all.length / three.length).toBeLessThan((one.length / alone.length) * 1.1);
    // One location failing while the others answer: still a few bytes a check.
    const failing = three.map((c) =>
      c.location === 5 ? { ...c, status: 'down', response_time_ms: null, http_code: null, error: 'Timed out after 5 s', timings: null } : c,
    );
    const chunk = encodeChecks(failing);
    expect(decodeChecks(chunk)).toStrictEqual(failing);
    expect(chunk.length / failing.length).toBeLessThan(7);
  });

  it('decode a version-1 chunk (written before locations) as checks of the built-in location', () => {
    // Written by the version-1 encoder (commit f8f4aef, src/lib/check-chunk.ts).
    const v1 = Buffer.from(
      '010303166f7065726174696f6e616c08646f776e24436f6e6e656374696f6e207265667573656400b440000033d061e3400f5302000ec02d2b205537aa01800064dd6016458102ff044b4187d3b428595ac44513ea7e98000000000003403e15b40374',
      'hex',
    );
    const cert = T0 + 80 * 86_400_000;
    expect(decodeChecks(v1)).toStrictEqual([
      {
        checked_at: T0,
        status: 'operational',
        response_time_ms: 12.34,
        http_code: 200,
        error: null,
        timings: '{"dns":1.2,"connect":3.4,"ttfb":10.01,"total":12.34}',
        cert_expires_at: cert,
        location: 0,
      },
      {
        checked_at: T0 + 60_000,
        status: 'operational',
        response_time_ms: 13.5,
        http_code: 200,
        error: null,
        timings: '{"dns":1.1,"connect":3.3,"ttfb":11.01,"total":13.5}',
        cert_expires_at: cert,
        location: 0,
      },
      {
        checked_at: T0 + 120_007,
        status: 'down',
        response_time_ms: null,
        http_code: null,
        error: 'Connection refused',
        timings: null,
        cert_expires_at: null,
        location: 0,
      },
    ]);
  });
});
