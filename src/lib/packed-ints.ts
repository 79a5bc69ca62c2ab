// Byte and bit packing for the check chunk codec (check-chunk.ts): a growing byte buffer with
// varints, exponential-Golomb codes in a bit stream, integer columns with their float64 side
// list, and a table of distinct texts. Numbers up to 2^53 and beyond 32 bits are handled with
// arithmetic, not JavaScript's 32-bit bitwise operators.

export class Writer {
  private buf = new Uint8Array(256);
  length = 0;
  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }
  byte(b: number): void {
    this.room(1);
    this.buf[this.length++] = b;
  }
  /** Unsigned integer up to 2^53, seven bits a byte (arithmetic, not bitwise: beyond 32 bits). */
  varint(v: number): void {
    this.room(8);
    while (v >= 0x80) {
      this.buf[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.length++] = v;
  }
  float(v: number): void {
    this.room(8);
    new DataView(this.buf.buffer).setFloat64(this.length, v, true);
    this.length += 8;
  }
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

export class Reader {
  private pos = 0;
  private buf: Uint8Array;
  private view: DataView;
  constructor(buf: Uint8Array) {
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  byte(): number {
    if (this.pos >= this.buf.length) throw new RangeError('check chunk: truncated');
    return this.buf[this.pos++];
  }
  varint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
      if (scale > 2 ** 56) throw new RangeError('check chunk: varint too long');
    }
  }
  float(): number {
    if (this.pos + 8 > this.buf.length) throw new RangeError('check chunk: truncated');
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }
  bytes(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) throw new RangeError('check chunk: truncated');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  rest(): Uint8Array {
    return this.buf.subarray(this.pos);
  }
  /** Bytes read so far */
  get position(): number {
    return this.pos;
  }
}

export const zigzag = (v: number) => (v >= 0 ? v * 2 : -v * 2 - 1);
export const unzigzag = (z: number) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);
const bitLength = (w: number) => {
  if (w < 2 ** 31) return 32 - Math.clz32(w);
  let n = 31;
  for (let x = Math.floor(w / 2 ** 31); x >= 1; x = Math.floor(x / 2)) n++;
  return n;
};

/**
 * Bits, most significant first, into bytes. Values up to 2^54 (arithmetic beyond 32 bits). Up to
 * 24 bits go in at once: one bit a call, with bestOrder's sums, was about a fifth of the
 * compaction job's CPU (bench:probe-drain's profile).
 */
export class BitWriter {
  private bytes: number[] = [];
  /** The bits not yet in a byte: fewer than 8 between calls */
  private acc = 0;
  private used = 0;
  bit(b: number): void {
    this.put(b, 1);
  }
  /** n ≤ 24 bits of w < 2^24 */
  private put(w: number, n: number): void {
    this.acc = (this.acc << n) | w;
    this.used += n;
    while (this.used >= 8) {
      this.used -= 8;
      this.bytes.push((this.acc >>> this.used) & 0xff);
    }
    this.acc &= (1 << this.used) - 1;
  }
  bits(w: number, n: number): void {
    // the high part first, 24 bits at a time (arithmetic: w may pass 32 bits)
    while (n > 24) {
      n -= 24;
      const scale = 2 ** n;
      this.put(Math.floor(w / scale) % 2 ** 24, 24);
      w %= scale;
    }
    this.put(w % 2 ** n, n);
  }
  /** Exponential-Golomb code of order k: v + 2^k in binary after as many zeros as it has bits beyond k + 1. */
  golomb(v: number, k: number): void {
    const w = v + 2 ** k;
    const len = bitLength(w);
    this.bits(0, len - k - 1);
    this.bits(w, len);
  }
  done(): Uint8Array {
    const out = [...this.bytes];
    if (this.used > 0) out.push(this.acc << (8 - this.used));
    return Uint8Array.from(out);
  }
}

export class BitReader {
  private pos = 0;
  private buf: Uint8Array;
  constructor(buf: Uint8Array) {
    this.buf = buf;
  }
  bit(): number {
    const byte = this.pos >>> 3;
    if (byte >= this.buf.length) throw new RangeError('check chunk: truncated');
    const b = (this.buf[byte] >>> (7 - (this.pos & 7))) & 1;
    this.pos++;
    return b;
  }
  /** n bits, most significant first, up to a byte at a time */
  bits(n: number): number {
    let v = 0;
    while (n > 0) {
      const byte = this.pos >>> 3;
      if (byte >= this.buf.length) throw new RangeError('check chunk: truncated');
      const left = 8 - (this.pos & 7);
      const take = Math.min(left, n);
      v = v * 2 ** take + ((this.buf[byte] >>> (left - take)) & ((1 << take) - 1));
      this.pos += take;
      n -= take;
    }
    return v;
  }
  golomb(k: number): number {
    // the leading zeros a byte at a time, then the one that ends them
    let zeros = 0;
    for (;;) {
      const byte = this.pos >>> 3;
      if (byte >= this.buf.length) throw new RangeError('check chunk: truncated');
      const used = this.pos & 7;
      const rest = this.buf[byte] & (0xff >>> used);
      const lead = rest === 0 ? 8 - used : Math.clz32(rest) - 24 - used;
      zeros += lead;
      if (zeros > 56) throw new RangeError('check chunk: bad code');
      this.pos += lead;
      if (rest !== 0) break;
    }
    this.pos++;
    const len = zeros + k + 1;
    return 2 ** (len - 1) + this.bits(len - 1) - 2 ** k;
  }
  /** Bits read so far */
  get position(): number {
    return this.pos;
  }
  /** Only padding (fewer than 8 zero bits) is left. */
  get atEnd(): boolean {
    return this.buf.length - (this.pos >>> 3) <= 1 && (this.pos + 7) >>> 3 === this.buf.length;
  }
}

/** The order of exponential-Golomb code that stores these values in the fewest bits. */
export function bestOrder(values: number[]): number {
  let max = 0;
  for (const v of values) if (v > max) max = v;
  return max < 2 ** 31 ? bestOrder32(values) : bestOrderOf((k) => codeBits(values, k));
}

/** The search itself: orders from 0 up, until one costs twice the best so far. */
function bestOrderOf(cost: (k: number) => number): number {
  let best = 0;
  let bestBits = Infinity;
  for (let k = 0; k <= 54; k++) {
    const bits = cost(k);
    if (bits < bestBits) [best, bestBits] = [k, bits];
    else if (bits > bestBits * 2) break;
  }
  return best;
}

/** Bits of the order-k codes of these values, one by one. */
function codeBits(values: number[], k: number): number {
  let bits = 0;
  for (const v of values) bits += 2 * bitLength(v + 2 ** k) - k - 1;
  return bits;
}

const byLength = new Float64Array(33);
const carryFrom = new Float64Array(34);

/**
 * The same search for values below 2^31, each order's cost from counts made in one pass over the
 * values (summing every value for each order tried was most of a chunk's encoding time).
 * A value of b bits codes in 2 * bitLength(v + 2^k) - k - 1 bits; bitLength(v + 2^k) is k + 1 when
 * b <= k, else b, or b + 1 when adding 2^k carries out of the top, which it does when v's top
 * b - k bits are all ones.
 */
function bestOrder32(values: number[]): number {
  byLength.fill(0);
  carryFrom.fill(0);
  let twiceBits = 0;
  for (const v of values) {
    const b = 32 - Math.clz32(v);
    byLength[b]++;
    twiceBits += 2 * b;
    if (b === 0) continue;
    const ones = Math.clz32(~(v << (32 - b)));
    carryFrom[b - Math.min(ones, b)]++;
    carryFrom[b]--;
  }
  const n = values.length;
  // running with k: values of at most k bits, 2b summed over the longer ones, values carrying at k
  let upTo = 0;
  let carrying = 0;
  return bestOrderOf((k) => {
    if (k <= 32) {
      upTo += byLength[k];
      twiceBits -= 2 * k * byLength[k];
      carrying += carryFrom[k];
    }
    return 2 * (k + 1) * upTo + twiceBits + 2 * carrying - n * (k + 1);
  });
}

/** Where a field's integers go (one column of the chunk); float64 values go to the chunk's shared list. */
export class IntsOut {
  readonly values: number[] = [];
  private floats: number[];
  constructor(floats: number[]) {
    this.floats = floats;
  }
  varint(v: number): void {
    this.values.push(v);
  }
  zigzag(v: number): void {
    this.values.push(zigzag(v));
  }
  float(v: number): void {
    this.floats.push(v);
  }
}

export class IntsIn {
  private pos = 0;
  private values: number[];
  private floats: { list: number[]; pos: number };
  constructor(values: number[], floats: { list: number[]; pos: number }) {
    this.values = values;
    this.floats = floats;
  }
  varint(): number {
    if (this.pos >= this.values.length) throw new RangeError('check chunk: column too short');
    return this.values[this.pos++];
  }
  zigzag(): number {
    return unzigzag(this.varint());
  }
  float(): number {
    if (this.floats.pos >= this.floats.list.length) throw new RangeError('check chunk: truncated');
    return this.floats.list[this.floats.pos++];
  }
  get atEnd(): boolean {
    return this.pos === this.values.length;
  }
}

/** Distinct texts, each stored once: well-formed ones as UTF-8, others (a lone surrogate) as UTF-16 units. */
export class Texts {
  readonly list: string[] = [];
  private index = new Map<string, number>();
  idOf(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.index.set(s, i);
    }
    return i;
  }
  write(w: Writer): void {
    const utf8 = new TextEncoder();
    w.varint(this.list.length);
    for (const s of this.list) {
      if (s.isWellFormed()) {
        const b = utf8.encode(s);
        w.varint(b.length * 2);
        w.bytes(b);
      } else {
        w.varint(s.length * 2 + 1);
        for (let i = 0; i < s.length; i++) w.varint(s.charCodeAt(i));
      }
    }
  }
  static read(r: Reader): string[] {
    const utf8 = new TextDecoder('utf-8', { fatal: true });
    const n = r.varint();
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const head = r.varint();
      const len = Math.floor(head / 2);
      if (head % 2 === 0) out.push(utf8.decode(r.bytes(len)));
      else {
        const units: number[] = [];
        for (let j = 0; j < len; j++) units.push(r.varint());
        out.push(String.fromCharCode(...units));
      }
    }
    return out;
  }
}
