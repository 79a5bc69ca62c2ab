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

/** Bits, most significant first, into bytes. Values up to 2^54 (arithmetic beyond 32 bits). */
export class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private used = 0;
  bit(b: number): void {
    this.acc = (this.acc << 1) | b;
    if (++this.used === 8) {
      this.bytes.push(this.acc);
      this.acc = 0;
      this.used = 0;
    }
  }
  bits(w: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) this.bit(w < 2 ** 31 ? (w >>> i) & 1 : Math.floor(w / 2 ** i) % 2);
  }
  /** Exponential-Golomb code of order k: v + 2^k in binary after as many zeros as it has bits beyond k + 1. */
  golomb(v: number, k: number): void {
    const w = v + 2 ** k;
    const len = bitLength(w);
    for (let i = 0; i < len - k - 1; i++) this.bit(0);
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
  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }
  golomb(k: number): number {
    let zeros = 0;
    while (this.bit() === 0) if (++zeros > 56) throw new RangeError('check chunk: bad code');
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
