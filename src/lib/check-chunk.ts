// One monitor's check results as a compact binary chunk (the `check_chunks` rows), and back,
// identically: every field of every check comes back as it went in, whatever it holds.
// Layout, after a version byte and the count: a table of the distinct texts (statuses, errors,
// unusual timings) stored once each, the few values kept as float64, then one column of
// integers per field, each packed as exponential-Golomb codes of the order that makes that
// column shortest (so a column of small numbers takes a few bits a value, not a byte). Times are
// zigzag delta-of-deltas (a steady interval costs a few bits a check); latencies and phase
// timings are hundredths of a millisecond (the checkers' precision, checkers/types.ts `round`)
// as zigzag deltas from the previous value of their column; status, HTTP code, error, timing
// shape and certificate expiry change slowly and are stored as runs. A value the compact forms
// cannot hold exactly (a latency finer than 1/100 ms, NaN, a timings text in another shape) is
// stored as it is (float64 or text), so the codec is exact for any input.

export const CHUNK_VERSION = 1;

/** One stored check, as the `check_results` row holds it (without monitor and company). */
export interface ChunkCheck {
  checked_at: number;
  status: string;
  response_time_ms: number | null;
  http_code: number | null;
  error: string | null;
  /** JSON text of the phase timings, as stored: {"dns":..,"connect":..,"tls":..,"ttfb":..,"total":..} */
  timings: string | null;
  cert_expires_at: number | null;
}

const PHASES = ['dns', 'connect', 'tls', 'ttfb', 'total'] as const;
/** Timing shape: bits 0-4 say which phases are present; these mark the other cases. */
const TOTAL_IS_RESPONSE = 0x20; // total equals the check's response time: not stored again
const TIMINGS_NULL = 0x40;
const TTFB_BY_TOTAL = 0x80; // ttfb stored as the time from the first byte to the end (see PhaseColumns)
const TIMINGS_TEXT = 0x100; // kept as text in the table (another key order, extra keys, ...): 0x100 + 0x200 × text index
/** Times are integers of at most this magnitude, so their delta-of-deltas stay exact doubles. */
const MAX_TIME = 2 ** 49;
const MAX_SCALED = 2 ** 50;

class Writer {
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
  zigzag(v: number): void {
    this.varint(v >= 0 ? v * 2 : -v * 2 - 1);
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

class Reader {
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
  zigzag(): number {
    const v = this.varint();
    return v % 2 === 0 ? v / 2 : -(v + 1) / 2;
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
}

const zigzag = (v: number) => (v >= 0 ? v * 2 : -v * 2 - 1);
const unzigzag = (z: number) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);
const bitLength = (w: number) => {
  if (w < 2 ** 31) return 32 - Math.clz32(w);
  let n = 31;
  for (let x = Math.floor(w / 2 ** 31); x >= 1; x = Math.floor(x / 2)) n++;
  return n;
};

/** Bits, most significant first, into bytes. Values up to 2^54 (arithmetic beyond 32 bits). */
class BitWriter {
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
    for (let i = n - 1; i >= 0; i--)
      this.bit(i < 31 ? (w < 2 ** 31 ? (w >>> i) & 1 : Math.floor(w / 2 ** i) % 2) : Math.floor(w / 2 ** i) % 2);
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

class BitReader {
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
  /** Only padding (fewer than 8 zero bits) is left. */
  get atEnd(): boolean {
    return this.buf.length - (this.pos >>> 3) <= 1 && (this.pos + 7) >>> 3 === this.buf.length;
  }
}

/** The order of exponential-Golomb code that stores these values in the fewest bits. */
function bestOrder(values: number[]): number {
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
class IntsOut {
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

class IntsIn {
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

const COLUMNS = [
  'time',
  'status',
  'response',
  'code',
  'error',
  'shape',
  'dns',
  'connect',
  'tls',
  'ttfb',
  'total',
  'afterFirstByte',
  'cert',
] as const;
type ColumnName = (typeof COLUMNS)[number];

/** Distinct texts, each stored once: well-formed ones as UTF-8, others (a lone surrogate) as UTF-16 units. */
class Texts {
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

/** A number scaled to an integer (hundredths of ms, or whole units) when that is exact, else null. */
function scaled(v: number, scale: number): number | null {
  const h = Math.round(v * scale);
  return Number.isSafeInteger(h) && Math.abs(h) < MAX_SCALED && h / scale === v && !Object.is(v, -0) ? h : null;
}

/**
 * A column of nullable numbers, each as a varint tag: 0 null, 1 a float64 follows, else the
 * zigzag of (scaled value − previous scaled value) + 2. `delta: false` stores the scaled value itself.
 */
class NumberColumn {
  private prev = 0;
  private scale: number;
  private delta: boolean;
  constructor(scale: number, delta: boolean) {
    this.scale = scale;
    this.delta = delta;
  }
  write(w: IntsOut, v: number | null): void {
    if (v === null) {
      w.varint(0);
      return;
    }
    const h = scaled(v, this.scale);
    if (h === null) {
      w.varint(1);
      w.float(v);
      return;
    }
    const d = this.delta ? h - this.prev : h;
    if (this.delta) this.prev = h;
    w.varint(zigzag(d) + 2);
  }
  read(r: IntsIn): number | null {
    const tag = r.varint();
    if (tag === 0) return null;
    if (tag === 1) return r.float();
    const d = unzigzag(tag - 2);
    const h = this.delta ? this.prev + d : d;
    if (this.delta) this.prev = h;
    return h / this.scale;
  }
}

/** Runs of equal values: (value, run length) pairs. `same` compares two values. */
function writeRuns<T>(w: IntsOut, values: T[], put: (v: T) => void, same: (a: T, b: T) => boolean = Object.is): void {
  for (let i = 0; i < values.length; ) {
    let j = i + 1;
    while (j < values.length && same(values[j], values[i])) j++;
    put(values[i]);
    w.varint(j - i);
    i = j;
  }
}

function readRuns<T>(r: IntsIn, n: number, get: () => T): T[] {
  const out: T[] = [];
  while (out.length < n) {
    const v = get();
    const run = r.varint();
    if (run < 1 || out.length + run > n) throw new RangeError('check chunk: bad run');
    for (let i = 0; i < run; i++) out.push(v);
  }
  return out;
}

type Phase = (typeof PHASES)[number];

interface Phases {
  shape: number;
  values: Partial<Record<Phase, number>>;
}

/** The timings text as phases, when writing them back in the canonical order gives the same text. */
function phasesOf(timings: string | null, responseTimeMs: number | null): Phases | null {
  if (timings === null) return { shape: TIMINGS_NULL, values: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(timings);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const obj = parsed as Record<string, unknown>;
  let shape = 0;
  const values: Partial<Record<Phase, number>> = {};
  PHASES.forEach((p, i) => {
    const v = obj[p];
    if (typeof v !== 'number') return;
    shape |= 1 << i;
    values[p] = v;
  });
  if (JSON.stringify(values) !== timings) return null;
  if (values.total !== undefined && responseTimeMs !== null && Object.is(values.total, responseTimeMs)) shape |= TOTAL_IS_RESPONSE;
  if (values.ttfb !== undefined && values.total !== undefined && scaled(values.ttfb, 100) !== null && scaled(values.total, 100) !== null)
    shape |= TTFB_BY_TOTAL;
  return { shape, values };
}

/**
 * The phase columns: dns, connect and tls as deltas from the previous check's; total (unless it
 * is the response time) likewise; ttfb as the time after the first byte (total − ttfb, in
 * hundredths), small and steady where ttfb itself moves with the server.
 */
class PhaseColumns {
  private columns = PHASES.map(() => new NumberColumn(100, true));
  private afterFirstByte = new NumberColumn(1, false);
  write(cols: Record<ColumnName, IntsOut>, p: Phases): void {
    PHASES.forEach((name, i) => {
      if (!(p.shape & (1 << i)) || name === 'ttfb') return;
      if (name === 'total' && p.shape & TOTAL_IS_RESPONSE) return;
      this.columns[i].write(cols[name], p.values[name]!);
    });
    if (p.shape & TTFB_BY_TOTAL)
      this.afterFirstByte.write(cols.afterFirstByte, scaled(p.values.total!, 100)! - scaled(p.values.ttfb!, 100)!);
    else if (p.shape & 0x08) this.columns[3].write(cols.ttfb, p.values.ttfb!);
  }
  read(cols: Record<ColumnName, IntsIn>, shape: number, responseTimeMs: number | null): string {
    const out: Partial<Record<Phase, number>> = {};
    PHASES.forEach((name, i) => {
      if (!(shape & (1 << i)) || name === 'ttfb') return;
      out[name] = name === 'total' && shape & TOTAL_IS_RESPONSE ? (responseTimeMs as number) : (this.columns[i].read(cols[name]) as number);
    });
    if (shape & TTFB_BY_TOTAL) out.ttfb = (Math.round(out.total! * 100) - (this.afterFirstByte.read(cols.afterFirstByte) as number)) / 100;
    else if (shape & 0x08) out.ttfb = this.columns[3].read(cols.ttfb) as number;
    // canonical key order
    const ordered: Partial<Record<Phase, number>> = {};
    for (const name of PHASES) if (out[name] !== undefined) ordered[name] = out[name];
    return JSON.stringify(ordered);
  }
}

/** Encodes checks (in the order given, which decode keeps) into one chunk. */
export function encodeChecks(checks: readonly ChunkCheck[]): Uint8Array {
  const texts = new Texts();
  const floats: number[] = [];
  const cols = Object.fromEntries(COLUMNS.map((c) => [c, new IntsOut(floats)])) as Record<ColumnName, IntsOut>;

  // Times: first absolute, then delta, then delta-of-delta.
  let prevT = 0;
  let prevD = 0;
  checks.forEach((c, i) => {
    const t = c.checked_at;
    if (!Number.isSafeInteger(t) || Math.abs(t) > MAX_TIME) throw new RangeError(`check chunk: checked_at ${t} out of range`);
    const d = t - prevT;
    cols.time.zigzag(i < 2 ? d : d - prevD);
    prevD = i === 0 ? 0 : d;
    prevT = t;
  });

  writeRuns(
    cols.status,
    checks.map((c) => texts.idOf(c.status)),
    (v) => cols.status.varint(v),
  );
  const response = new NumberColumn(100, true);
  for (const c of checks) response.write(cols.response, c.response_time_ms);
  const code = new NumberColumn(1, false);
  writeRuns(
    cols.code,
    checks.map((c) => c.http_code),
    (v) => code.write(cols.code, v),
  );
  writeRuns(
    cols.error,
    checks.map((c) => (c.error === null ? 0 : texts.idOf(c.error) + 1)),
    (v) => cols.error.varint(v),
  );
  const phases = checks.map((c) => phasesOf(c.timings, c.response_time_ms));
  writeRuns(
    cols.shape,
    phases.map((p, i) => (p ? p.shape : TIMINGS_TEXT + texts.idOf(checks[i].timings!) * 0x200)),
    (v) => cols.shape.varint(v),
  );
  const phaseColumns = new PhaseColumns();
  for (const p of phases) if (p && p.shape !== TIMINGS_NULL) phaseColumns.write(cols, p);
  const cert = new NumberColumn(1, false);
  writeRuns(
    cols.cert,
    checks.map((c) => c.cert_expires_at),
    (v) => cert.write(cols.cert, v),
  );

  const out = new Writer();
  out.byte(CHUNK_VERSION);
  out.varint(checks.length);
  texts.write(out);
  out.varint(floats.length);
  for (const f of floats) out.float(f);
  const bits = new BitWriter();
  for (const name of COLUMNS) {
    const values = cols[name].values;
    bits.golomb(values.length, 3);
    if (values.length === 0) continue;
    const k = bestOrder(values);
    bits.bits(k, 6);
    for (const v of values) bits.golomb(v, k);
  }
  out.bytes(bits.done());
  return out.done();
}

/** The checks of a chunk, in the order they were encoded. Throws RangeError on a damaged chunk. */
export function decodeChecks(chunk: Uint8Array): ChunkCheck[] {
  const r = new Reader(chunk);
  const version = r.byte();
  if (version !== CHUNK_VERSION) throw new RangeError(`check chunk: unknown version ${version}`);
  const n = r.varint();
  const texts = Texts.read(r);
  const text = (i: number) => {
    if (i >= texts.length) throw new RangeError('check chunk: bad text index');
    return texts[i];
  };
  const floats = { list: [] as number[], pos: 0 };
  const floatCount = r.varint();
  for (let i = 0; i < floatCount; i++) floats.list.push(r.float());
  const bits = new BitReader(r.rest());
  const cols = {} as Record<ColumnName, IntsIn>;
  for (const name of COLUMNS) {
    const count = bits.golomb(3);
    if (count > 16 * n + 16) throw new RangeError('check chunk: bad column length');
    const k = count === 0 ? 0 : bits.bits(6);
    const values: number[] = [];
    for (let i = 0; i < count; i++) values.push(bits.golomb(k));
    cols[name] = new IntsIn(values, floats);
  }
  if (!bits.atEnd) throw new RangeError('check chunk: trailing bytes');

  const times: number[] = [];
  let prevT = 0;
  let prevD = 0;
  for (let i = 0; i < n; i++) {
    const z = cols.time.zigzag();
    const d = i < 2 ? z : prevD + z;
    prevT += d;
    prevD = i === 0 ? 0 : d;
    times.push(prevT);
  }
  const statuses = readRuns(cols.status, n, () => text(cols.status.varint()));
  const response = new NumberColumn(100, true);
  const responses = times.map(() => response.read(cols.response));
  const code = new NumberColumn(1, false);
  const codes = readRuns(cols.code, n, () => code.read(cols.code));
  const errors = readRuns(cols.error, n, () => {
    const v = cols.error.varint();
    return v === 0 ? null : text(v - 1);
  });
  const shapes = readRuns(cols.shape, n, () => cols.shape.varint());
  const phaseColumns = new PhaseColumns();
  const timings = shapes.map((shape, j) => {
    if (shape === TIMINGS_NULL) return null;
    if (shape >= TIMINGS_TEXT) return text(Math.floor(shape / 0x200));
    return phaseColumns.read(cols, shape, responses[j]);
  });
  const cert = new NumberColumn(1, false);
  const certs = readRuns(cols.cert, n, () => cert.read(cols.cert));
  if (COLUMNS.some((c) => !cols[c].atEnd) || floats.pos !== floats.list.length) throw new RangeError('check chunk: values left over');

  return times.map((checked_at, i) => ({
    checked_at,
    status: statuses[i],
    response_time_ms: responses[i],
    http_code: codes[i],
    error: errors[i],
    timings: timings[i],
    cert_expires_at: certs[i],
  }));
}
