// Latency histogram of bounded relative error (the DDSketch mapping: logarithmic buckets).
// A value v > 0 falls in bucket k = ceil(log_γ v) with γ = (1 + α) / (1 − α), i.e. in
// (γ^(k−1), γ^k]; the bucket is read back as 2γ^k / (γ + 1), which is within α of every value in
// it. A quantile by nearest rank therefore lands in the bucket of the exact sample and is within
// α = 1 % of it (the product promises 2 %). Counts are exact, so sketches merge by adding
// counts per bucket, whatever rows, minutes or services they come from.
// Pure (no I/O): the span rollups use it now, monitor response times can later.
// Own code rather than @datadog/sketches-js: that package brings protobuf encoding and dense
// stores; a sparse map serialised as short text is what the rollup rows need.

export const RELATIVE_ACCURACY = 0.01;
const GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY);
const LN_GAMMA = Math.log(GAMMA);
/** Values at or below this (ms; a nanosecond) are counted as 0: no relative bound exists at 0. */
export const MIN_VALUE = 1e-6;
/** Larger values (and +Infinity) are counted as this, so a bucket's value stays finite. */
export const MAX_VALUE = 1e300;
const ZERO = 'z';

export function keyOf(v: number): number {
  return Math.ceil(Math.log(Math.min(v, MAX_VALUE)) / LN_GAMMA);
}

export function valueOfKey(k: number): number {
  return (2 * Math.exp(k * LN_GAMMA)) / (GAMMA + 1);
}

export class LatencySketch {
  /** bucket key → count; values ≤ MIN_VALUE (and NaN) are in `zero` */
  readonly counts = new Map<number, number>();
  zero = 0;
  total = 0;

  add(v: number, n = 1): void {
    this.total += n;
    if (!(v > MIN_VALUE)) {
      this.zero += n;
      return;
    }
    const k = keyOf(v);
    this.counts.set(k, (this.counts.get(k) ?? 0) + n);
  }

  merge(other: LatencySketch): void {
    this.total += other.total;
    this.zero += other.zero;
    for (const [k, n] of other.counts) this.counts.set(k, (this.counts.get(k) ?? 0) + n);
  }

  /** Quantile q (0..1) by nearest rank, within RELATIVE_ACCURACY of the exact one; 0 when empty. */
  quantile(q: number): number {
    if (this.total === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * this.total));
    let seen = this.zero;
    if (seen >= rank) return 0;
    const keys = [...this.counts.keys()].sort((a, b) => a - b);
    for (const k of keys) {
      seen += this.counts.get(k)!;
      if (seen >= rank) return valueOfKey(k);
    }
    return valueOfKey(keys[keys.length - 1]);
  }

  /**
   * Compact text: buckets by key, `key` for a count of 1 and `key*count` otherwise, joined by
   * commas (e.g. `z*2,312,340*15`). Two serialisations joined by a comma parse as their merge,
   * which lets SQL add to a stored sketch by concatenation alone.
   */
  serialize(): string {
    const parts: string[] = [];
    if (this.zero > 0) parts.push(this.zero === 1 ? ZERO : `${ZERO}*${this.zero}`);
    for (const k of [...this.counts.keys()].sort((a, b) => a - b)) {
      const n = this.counts.get(k)!;
      parts.push(n === 1 ? String(k) : `${k}*${n}`);
    }
    return parts.join(',');
  }

  /** Adds a serialised sketch to this one; entries that do not parse are ignored. */
  mergeText(text: string): this {
    // A hand-written scan: long ranges merge hundreds of thousands of rows, and splitting
    // into substrings costs several times more.
    const len = text.length;
    let i = 0;
    while (i < len) {
      let end = text.indexOf(',', i);
      if (end < 0) end = len;
      this.#entry(text, i, end);
      i = end + 1;
    }
    return this;
  }

  /** One `key` or `key*count` entry in text[from, to); malformed ones are skipped. */
  #entry(text: string, from: number, to: number): void {
    if (from === to) return;
    let star = to;
    for (let j = from; j < to; j++) if (text.charCodeAt(j) === 42 /* * */) star = j;
    const n = star === to ? 1 : intOf(text, star + 1, to);
    if (n === null || n <= 0) return;
    if (star - from === 1 && text.charCodeAt(from) === 122 /* z */) {
      this.zero += n;
    } else {
      const k = intOf(text, from, star);
      if (k === null) return;
      this.counts.set(k, (this.counts.get(k) ?? 0) + n);
    }
    this.total += n;
  }

  static parse(text: string): LatencySketch {
    return new LatencySketch().mergeText(text);
  }
}

/** The decimal integer (optionally negative) in text[from, to), or null. */
function intOf(text: string, from: number, to: number): number | null {
  let i = from;
  const negative = text.charCodeAt(i) === 45; /* - */
  if (negative) i++;
  if (i === to || to - i > 15) return null;
  let v = 0;
  for (; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return null;
    v = v * 10 + d;
  }
  return negative ? -v : v;
}
