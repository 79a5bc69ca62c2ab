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
// Version 2 (issue 27) keeps the location that ran each check. Checks of several locations come
// interleaved in time (A, B, C, A, B, C, ...), and each location is a steady series of its own:
// read across locations, the times would step 20 ms then 20 s and the latencies jump between
// networks, and the runs of status or code would break at every check where one location fails.
// So the location column comes first (the distinct locations, then runs of each check's step
// through that list: a steady round robin is one run), and every other column is written in the
// location-grouped order (each location's checks in their given order, the locations in order
// of first appearance): each value's predecessor is its own location's previous one. The
// decoder reads the locations, takes the same order and puts each check back where it was.
// Version-1 chunks (no location column) still decode, with location 0 (`local`).

import { BitReader, BitWriter, bestOrder, IntsIn, IntsOut, Reader, Texts, Writer, unzigzag, zigzag } from './packed-ints.ts';

export const CHUNK_VERSION = 2;

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
  /** Which location ran the check: 0 is `local`, else probe_locations.num (issue 27) */
  location: number;
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
/** Location numbers are small integers (probe_locations.num); this bounds a damaged chunk's list. */
const MAX_LOCATION = 2 ** 31;

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
  'location',
] as const;
type ColumnName = (typeof COLUMNS)[number];
/** Version 1 had every column but the location (added last, so the layouts differ only there). */
const COLUMNS_V1 = COLUMNS.filter((c) => c !== 'location');
const columnsOf = (version: number): readonly ColumnName[] => (version === 1 ? COLUMNS_V1 : COLUMNS);

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

/**
 * The JSON text a check's phase timings are stored as: the phases in the codec's order (dns,
 * connect, tls, ttfb, total), then any other keys as given. The http checker builds its timings
 * with `total` first; stored as built, no check's text matched the codec's order, so every one
 * went into the chunk's text table whole (about 50 of the 60 bytes a real check took there).
 */
export function timingsText(timings: object): string {
  const given = timings as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const p of PHASES) if (p in given) ordered[p] = given[p];
  for (const [key, v] of Object.entries(given)) if (!(key in ordered)) ordered[key] = v;
  return JSON.stringify(ordered);
}

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

/**
 * The location column: how many distinct locations, each of them in order of first appearance,
 * then runs of each check's step through that list (its index minus the previous check's, modulo
 * the list's length): one location is one run of 0, a steady round robin one run of 1.
 * Answers each check's index in the list.
 */
function writeLocations(col: IntsOut, checks: readonly ChunkCheck[]): number[] {
  const index = new Map<number, number>();
  const idx = checks.map((c) => {
    const l = c.location;
    if (!Number.isSafeInteger(l) || l < 0 || l >= MAX_LOCATION) throw new RangeError(`check chunk: location ${l} out of range`);
    let i = index.get(l);
    if (i === undefined) index.set(l, (i = index.size));
    return i;
  });
  const m = index.size;
  col.varint(m);
  for (const l of index.keys()) col.varint(l);
  let prev = m - 1;
  const steps = idx.map((i) => {
    const step = (i - prev + m) % m;
    prev = i;
    return step;
  });
  writeRuns(col, steps, (v) => col.varint(v));
  return idx;
}

function readLocations(col: IntsIn, n: number): { list: number[]; idx: number[] } {
  const m = col.varint();
  if (m > n || (n > 0 && m === 0)) throw new RangeError('check chunk: bad location list');
  const list: number[] = [];
  for (let i = 0; i < m; i++) {
    const l = col.varint();
    if (l >= MAX_LOCATION) throw new RangeError('check chunk: bad location');
    list.push(l);
  }
  let prev = m - 1;
  const idx = readRuns(col, n, () => col.varint()).map((step) => {
    if (step >= m) throw new RangeError('check chunk: bad location step');
    prev = (prev + step) % m;
    return prev;
  });
  return { list, idx };
}

/** Positions of the checks grouped by location (list order), each location's in their given order. */
function groupedOrder(idx: readonly number[]): number[] {
  const groups: number[][] = [];
  idx.forEach((g, i) => {
    if (!groups[g]) groups[g] = [];
    groups[g].push(i);
  });
  return groups.flat();
}

/** Encodes checks (in the order given, which decode keeps) into one chunk. */
export function encodeChecks(checks: readonly ChunkCheck[]): Uint8Array {
  const texts = new Texts();
  const floats: number[] = [];
  const cols = Object.fromEntries(COLUMNS.map((c) => [c, new IntsOut(floats)])) as Record<ColumnName, IntsOut>;

  const idx = writeLocations(cols.location, checks);
  const order = groupedOrder(idx);
  // Every other column in the location-grouped order (see the top of this file).
  const seq = order.map((i) => checks[i]);

  // Times: a location's first check from the chunk's first check (the very first absolute),
  // then its deltas, then delta-of-deltas; the delta carried into a new location is the
  // previous location's (locations of one monitor share its interval).
  let prevT = 0;
  let prevD = 0;
  seq.forEach((c, j) => {
    const t = c.checked_at;
    if (!Number.isSafeInteger(t) || Math.abs(t) > MAX_TIME) throw new RangeError(`check chunk: checked_at ${t} out of range`);
    if (j === 0) cols.time.zigzag(t);
    else if (idx[order[j]] !== idx[order[j - 1]]) cols.time.zigzag(t - seq[0].checked_at);
    else {
      const d = t - prevT;
      cols.time.zigzag(d - prevD);
      prevD = d;
    }
    prevT = t;
  });

  writeRuns(
    cols.status,
    seq.map((c) => texts.idOf(c.status)),
    (v) => cols.status.varint(v),
  );
  const response = new NumberColumn(100, true);
  for (const c of seq) response.write(cols.response, c.response_time_ms);
  const code = new NumberColumn(1, false);
  writeRuns(
    cols.code,
    seq.map((c) => c.http_code),
    (v) => code.write(cols.code, v),
  );
  writeRuns(
    cols.error,
    seq.map((c) => (c.error === null ? 0 : texts.idOf(c.error) + 1)),
    (v) => cols.error.varint(v),
  );
  const phases = seq.map((c) => phasesOf(c.timings, c.response_time_ms));
  writeRuns(
    cols.shape,
    phases.map((p, j) => (p ? p.shape : TIMINGS_TEXT + texts.idOf(seq[j].timings!) * 0x200)),
    (v) => cols.shape.varint(v),
  );
  const phaseColumns = new PhaseColumns();
  for (const p of phases) if (p && p.shape !== TIMINGS_NULL) phaseColumns.write(cols, p);
  const cert = new NumberColumn(1, false);
  writeRuns(
    cols.cert,
    seq.map((c) => c.cert_expires_at),
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

/** A chunk's parts: its texts, float64 values and integer columns, and what each takes. */
function readLayout(chunk: Uint8Array) {
  const r = new Reader(chunk);
  const version = r.byte();
  if (version !== 1 && version !== CHUNK_VERSION) throw new RangeError(`check chunk: unknown version ${version}`);
  const n = r.varint();
  const textsAt = r.position;
  const texts = Texts.read(r);
  const textBytes = r.position - textsAt;
  const floats = { list: [] as number[], pos: 0 };
  const floatCount = r.varint();
  for (let i = 0; i < floatCount; i++) floats.list.push(r.float());
  const headerBytes = r.position - textBytes - floatCount * 8;
  const bits = new BitReader(r.rest());
  const cols = {} as Record<ColumnName, IntsIn>;
  const columnBits = {} as Record<ColumnName, number>;
  for (const name of columnsOf(version)) {
    const at = bits.position;
    const count = bits.golomb(3);
    if (count > 16 * n + 16) throw new RangeError('check chunk: bad column length');
    const k = count === 0 ? 0 : bits.bits(6);
    const values: number[] = [];
    for (let i = 0; i < count; i++) values.push(bits.golomb(k));
    cols[name] = new IntsIn(values, floats);
    columnBits[name] = bits.position - at;
  }
  if (!bits.atEnd) throw new RangeError('check chunk: trailing bytes');
  return { version, n, texts, textBytes, floats, headerBytes, cols, columnBits };
}

/**
 * Where a chunk's bytes go (the storage benchmark's breakdown): the fixed header (version,
 * count, table sizes), the distinct texts, the float64 values, and the bits of each column.
 */
export function chunkAnatomy(chunk: Uint8Array): {
  headerBytes: number;
  textBytes: number;
  floats: number;
  columnBits: Record<string, number>;
} {
  const { headerBytes, textBytes, floats, columnBits } = readLayout(chunk);
  return { headerBytes, textBytes, floats: floats.list.length, columnBits };
}

/** The checks of a chunk, in the order they were encoded. Throws RangeError on a damaged chunk. */
export function decodeChecks(chunk: Uint8Array): ChunkCheck[] {
  const { version, n, texts, floats, cols } = readLayout(chunk);
  const text = (i: number) => {
    if (i >= texts.length) throw new RangeError('check chunk: bad text index');
    return texts[i];
  };

  // Version 1: one location (`local`), in the given order.
  const { list, idx } = version === 1 ? { list: [0], idx: new Array<number>(n).fill(0) } : readLocations(cols.location, n);
  const order = groupedOrder(idx);

  const times: number[] = [];
  let prevT = 0;
  let prevD = 0;
  for (let j = 0; j < n; j++) {
    const z = cols.time.zigzag();
    if (j === 0) prevT = z;
    else if (idx[order[j]] !== idx[order[j - 1]]) prevT = times[0] + z;
    else {
      prevD += z;
      prevT += prevD;
    }
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
  if (columnsOf(version).some((c) => !cols[c].atEnd) || floats.pos !== floats.list.length)
    throw new RangeError('check chunk: values left over');

  const out = new Array<ChunkCheck>(n);
  order.forEach((i, j) => {
    out[i] = {
      checked_at: times[j],
      status: statuses[j],
      response_time_ms: responses[j],
      http_code: codes[j],
      error: errors[j],
      timings: timings[j],
      cert_expires_at: certs[j],
      location: list[idx[i]],
    };
  });
  return out;
}
