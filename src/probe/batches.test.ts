// A probe's delivery is cut into calls under the results call's body limit, and a browser run's
// screenshots are bounded with the failing step's first.
import { describe, expect, it } from 'vitest';
import { batchesOf } from './batches.ts';
import { RESULT_SHOTS_MAX, RESULT_SHOTS_MAX_CHARS, type WireResult, wireShots } from './wire.ts';

const result = (i: number, pngChars = 0): WireResult => ({
  id: `r${i}`,
  monitor_id: 'm',
  checked_at: i,
  status: 'down',
  response_time_ms: 1,
  http_code: null,
  error: null,
  timings: null,
  cert_expires_at: null,
  cert_issuer: null,
  cert_subject: null,
  ...(pngChars ? { detail: { screenshots: [{ index: 1, png: 'A'.repeat(pngChars) }] } } : {}),
});

describe('batchesOf', () => {
  it('cuts by count and by size, in order, never leaving a result out', () => {
    const plain = Array.from({ length: 2500 }, (_, i) => result(i));
    expect(batchesOf(plain, 1000).map((b) => b.length)).toEqual([1000, 1000, 500]);
    const heavy = [result(1, 1_500_000), result(2, 1_500_000), result(3, 1_500_000), result(4)];
    const parts = batchesOf(heavy, 1000);
    expect(parts.map((b) => b.map((r) => r.id))).toEqual([
      ['r1', 'r2'],
      ['r3', 'r4'],
    ]);
    for (const p of parts) expect(JSON.stringify({ stats: {}, results: p }).length).toBeLessThan(4 * 1024 * 1024);
  });
});

describe('wireShots', () => {
  const png = (index: number, bytes: number) => ({ index, png: Buffer.alloc(bytes, index) });

  it("puts the failing step's screenshot first and keeps the rest while they fit", () => {
    const shots = [png(1, 10), png(2, 10), png(3, 10)];
    expect(wireShots(shots, 3).map((s) => s.index)).toEqual([3, 1, 2]);
    expect(wireShots(shots, null).map((s) => s.index)).toEqual([1, 2, 3]);
    expect(wireShots([png(1, 10)], 1)[0].png).toBe(Buffer.alloc(10, 1).toString('base64'));
  });

  it('bounds their number and their base64 together', () => {
    expect(
      wireShots(
        Array.from({ length: 9 }, (_, i) => png(i + 1, 10)),
        null,
      ),
    ).toHaveLength(RESULT_SHOTS_MAX);
    const big = Math.floor((RESULT_SHOTS_MAX_CHARS * 3) / 4 / 2) - 100; // two fit, a third does not
    const kept = wireShots([png(1, big), png(2, big), png(3, big)], 3);
    expect(kept.map((s) => s.index)).toEqual([3, 1]);
    expect(kept.reduce((n, s) => n + s.png.length, 0)).toBeLessThanOrEqual(RESULT_SHOTS_MAX_CHARS);
  });
});
