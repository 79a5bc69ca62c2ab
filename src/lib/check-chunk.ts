// One monitor's check results as a compact binary chunk (the `check_chunks` rows), and back,
// identically: every field of every check comes back as it went in, whatever it holds.
// Layout, after a version byte and the count: a table of the distinct texts (statuses, errors,
// unusual timings) stored once each, then one column per field. Times are delta-of-delta
// zigzag varints (a steady interval costs one byte per check); latencies and phase timings are
// hundredths of a millisecond (the checkers' precision, checkers/types.ts `round`) as zigzag
// varint deltas from the previous value of their column; status, HTTP code, error, timing shape
// and certificate expiry change slowly and are stored as runs. A value the compact forms cannot
// hold exactly (a latency finer than 1/100 ms, NaN, a timings text in another shape) is stored
// as it is (float64 or text), so the codec is exact for any input.

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
const TIMINGS_TEXT = 0x80; // kept as text in the table (another key order, extra keys, ...)
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
  get atEnd(): boolean {
    return this.pos === this.buf.length;
  }
}

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
  write(w: Writer, v: number | null): void {
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
    w.varint((d >= 0 ? d * 2 : -d * 2 - 1) + 2);
  }
  read(r: Reader): number | null {
    const tag = r.varint();
    if (tag === 0) return null;
    if (tag === 1) return r.float();
    const z = tag - 2;
    const d = z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    const h = this.delta ? this.prev + d : d;
    if (this.delta) this.prev = h;
    return h / this.scale;
  }
}

/** Runs of equal values: (value, run length) pairs. `same` compares two values. */
function writeRuns<T>(w: Writer, values: T[], put: (v: T) => void, same: (a: T, b: T) => boolean = Object.is): void {
  for (let i = 0; i < values.length; ) {
    let j = i + 1;
    while (j < values.length && same(values[j], values[i])) j++;
    put(values[i]);
    w.varint(j - i);
    i = j;
  }
}

function readRuns<T>(r: Reader, n: number, get: () => T): T[] {
  const out: T[] = [];
  while (out.length < n) {
    const v = get();
    const run = r.varint();
    if (run < 1 || out.length + run > n) throw new RangeError('check chunk: bad run');
    for (let i = 0; i < run; i++) out.push(v);
  }
  return out;
}

interface Phases {
  shape: number;
  values: (number | null)[];
}

/** The timings text as phases, when writing them back in the canonical order gives the same text. */
function phasesOf(timings: string | null, responseTimeMs: number | null): Phases | null {
  if (timings === null) return { shape: TIMINGS_NULL, values: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(timings);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const obj = parsed as Record<string, unknown>;
  let shape = 0;
  const values: number[] = [];
  const canonical: Record<string, number> = {};
  PHASES.forEach((p, i) => {
    const v = obj[p];
    if (typeof v !== 'number') return;
    shape |= 1 << i;
    canonical[p] = v;
    values.push(v);
  });
  if (JSON.stringify(canonical) !== timings) return null;
  if (shape & 0x10 && responseTimeMs !== null && Object.is(values[values.length - 1], responseTimeMs)) {
    shape |= TOTAL_IS_RESPONSE;
    values.pop();
  }
  return { shape, values };
}

function timingsText(shape: number, values: number[], responseTimeMs: number | null): string {
  const out: Record<string, number> = {};
  let k = 0;
  PHASES.forEach((p, i) => {
    if (!(shape & (1 << i))) return;
    out[p] = p === 'total' && shape & TOTAL_IS_RESPONSE ? responseTimeMs! : values[k++];
  });
  return JSON.stringify(out);
}

/** Encodes checks (in the order given, which decode keeps) into one chunk. */
export function encodeChecks(checks: readonly ChunkCheck[]): Uint8Array {
  const texts = new Texts();
  const body = new Writer();

  // Times: first absolute, then delta, then delta-of-delta.
  let prevT = 0;
  let prevD = 0;
  checks.forEach((c, i) => {
    const t = c.checked_at;
    if (!Number.isSafeInteger(t) || Math.abs(t) > MAX_TIME) throw new RangeError(`check chunk: checked_at ${t} out of range`);
    const d = t - prevT;
    body.zigzag(i < 2 ? d : d - prevD);
    prevD = i === 0 ? 0 : d;
    prevT = t;
  });

  writeRuns(
    body,
    checks.map((c) => texts.idOf(c.status)),
    (v) => body.varint(v),
  );
  const response = new NumberColumn(100, true);
  for (const c of checks) response.write(body, c.response_time_ms);
  const code = new NumberColumn(1, false);
  writeRuns(
    body,
    checks.map((c) => c.http_code),
    (v) => code.write(body, v),
  );
  writeRuns(
    body,
    checks.map((c) => (c.error === null ? 0 : texts.idOf(c.error) + 1)),
    (v) => body.varint(v),
  );

  const phases = checks.map((c) => phasesOf(c.timings, c.response_time_ms));
  writeRuns(
    body,
    phases.map((p, i) => (p ? p.shape : TIMINGS_TEXT + texts.idOf(checks[i].timings!) * 0x100)),
    (v) => body.varint(v),
  );
  const phaseColumns = PHASES.map(() => new NumberColumn(100, true));
  for (const p of phases) {
    if (!p || p.shape === TIMINGS_NULL) continue;
    let k = 0;
    PHASES.forEach((_, i) => {
      if (p.shape & (1 << i) && !(i === 4 && p.shape & TOTAL_IS_RESPONSE)) phaseColumns[i].write(body, p.values[k++]);
    });
  }

  const cert = new NumberColumn(1, false);
  writeRuns(
    body,
    checks.map((c) => c.cert_expires_at),
    (v) => cert.write(body, v),
  );

  const out = new Writer();
  out.byte(CHUNK_VERSION);
  out.varint(checks.length);
  texts.write(out);
  out.bytes(body.done());
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

  const times: number[] = [];
  let prevT = 0;
  let prevD = 0;
  for (let i = 0; i < n; i++) {
    const z = r.zigzag();
    const d = i < 2 ? z : prevD + z;
    prevT += d;
    prevD = i === 0 ? 0 : d;
    times.push(prevT);
  }
  const statuses = readRuns(r, n, () => text(r.varint()));
  const response = new NumberColumn(100, true);
  const responses = times.map(() => response.read(r));
  const code = new NumberColumn(1, false);
  const codes = readRuns(r, n, () => code.read(r));
  const errors = readRuns(r, n, () => {
    const v = r.varint();
    return v === 0 ? null : text(v - 1);
  });
  const shapes = readRuns(r, n, () => r.varint());
  const phaseColumns = PHASES.map(() => new NumberColumn(100, true));
  const timings = shapes.map((shape, j) => {
    if (shape === TIMINGS_NULL) return null;
    if (shape >= TIMINGS_TEXT) return text(Math.floor(shape / 0x100));
    const values: number[] = [];
    PHASES.forEach((_, i) => {
      if (shape & (1 << i) && !(i === 4 && shape & TOTAL_IS_RESPONSE)) values.push(phaseColumns[i].read(r) as number);
    });
    return timingsText(shape, values, responses[j]);
  });
  const cert = new NumberColumn(1, false);
  const certs = readRuns(r, n, () => cert.read(r));
  if (!r.atEnd) throw new RangeError('check chunk: trailing bytes');

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
