// The bit packing under check chunks and rollup sketches: the fast paths (bits written and read
// up to 24 at a time, each Golomb order's cost from counts) must give exactly the bytes and the
// orders of the plain definitions below, or chunks written before would not read back the same.
import { describe, expect, it } from 'vitest';
import { BitReader, BitWriter, bestOrder } from './packed-ints.ts';

/** A bit length by halving (the definition, any size) */
const bitLength = (w: number) => {
  let n = 0;
  for (; w >= 1; w = Math.floor(w / 2)) n++;
  return n;
};

/** The order search as defined: each order's bits summed value by value, until one costs twice the best */
function plainBestOrder(values: number[]): number {
  let best = 0;
  let bestBits = Infinity;
  for (let k = 0; k <= 54; k++) {
    let bits = 0;
    for (const v of values) bits += 2 * bitLength(v + 2 ** k) - k - 1;
    if (bits < bestBits) [best, bestBits] = [k, bits];
    else if (bits > bestBits * 2) break;
  }
  return best;
}

/** Bits one at a time, most significant first, zero-padded to a byte */
class PlainBits {
  readonly bits: number[] = [];
  put(w: number, n: number) {
    for (let i = n - 1; i >= 0; i--) this.bits.push(Math.floor(w / 2 ** i) % 2);
  }
  golomb(v: number, k: number) {
    const w = v + 2 ** k;
    const len = bitLength(w);
    this.put(0, len - k - 1);
    this.put(w, len);
  }
  bytes(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.bits.length; i += 8) {
      let b = 0;
      for (let j = 0; j < 8; j++) b = b * 2 + (this.bits[i + j] ?? 0);
      out.push(b);
    }
    return out;
  }
}

function random(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** Columns as chunks hold them: small counts, latencies, 31-bit edges, runs of all-ones (carries), 53-bit values */
function columns(n: number, rnd: () => number): number[][] {
  const scales = [1, 10, 5000, 2 ** 20, 2 ** 31, 2 ** 40, 2 ** 53];
  return Array.from({ length: n }, (_, i) => {
    const len = Math.floor(rnd() * 200);
    if (i % 7 === 3) return Array.from({ length: len }, () => 2 ** Math.floor(rnd() * 31) - 1);
    const scale = scales[Math.floor(rnd() * scales.length)];
    return Array.from({ length: len }, () => Math.floor(rnd() * rnd() * scale));
  });
}

describe('packed ints', () => {
  it('choose the Golomb order the plain search chooses, for empty, small, carrying and 53-bit columns', () => {
    const rnd = random(11);
    const cols = [[], [0], [2 ** 31 - 1], [2 ** 31], [2 ** 53 - 1, 0], ...columns(1000, rnd)];
    const differing = cols.filter((c) => bestOrder(c) !== plainBestOrder(c));
    expect(differing).toEqual([]);
    // the search does move: a column of large values wants a high order
    expect(bestOrder(Array.from({ length: 50 }, () => 1_000_000))).toBe(plainBestOrder(Array.from({ length: 50 }, () => 1_000_000)));
    expect(bestOrder(Array.from({ length: 50 }, () => 1_000_000))).toBeGreaterThan(10);
  });

  it('write the same bytes as one bit at a time, and read every value back', () => {
    const rnd = random(5);
    for (const values of columns(400, rnd)) {
      const k = bestOrder(values);
      const wide = Math.floor(rnd() * 2 ** 53);
      const fast = new BitWriter();
      const plain = new PlainBits();
      for (const v of values) {
        fast.golomb(v, k);
        plain.golomb(v, k);
      }
      fast.bits(wide, 53);
      plain.put(wide, 53);
      fast.bits(5, 3);
      plain.put(5, 3);
      const bytes = fast.done();
      expect([...bytes]).toEqual(plain.bytes());
      const r = new BitReader(bytes);
      expect(values.map(() => r.golomb(k))).toEqual(values);
      expect(r.bits(53)).toBe(wide);
      expect(r.bits(3)).toBe(5);
      expect(r.atEnd).toBe(true);
    }
  });

  it('refuse a code of more than 56 leading zeros and one cut short', () => {
    expect(() => new BitReader(new Uint8Array(8)).golomb(0)).toThrow('check chunk: bad code');
    expect(() => new BitReader(new Uint8Array([0, 0, 1])).golomb(4)).toThrow('check chunk: truncated');
    expect(() => new BitReader(new Uint8Array([0])).golomb(0)).toThrow('check chunk: truncated');
    // 52 zeros, then the 53 bits of 2^53 - 1: the largest value a number holds exactly
    const w = new BitWriter();
    w.golomb(2 ** 53 - 2, 0);
    expect(new BitReader(w.done()).golomb(0)).toBe(2 ** 53 - 2);
  });
});
