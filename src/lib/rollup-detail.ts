// The parts of a monitor rollup row SQL never filters or sums on (latency sum, min, max, p95,
// the latency sketch, phase sums, the last check's status and time) as one small binary value
// (the rollup tables' `data` column, migration 0114), and back. The counts and the last HTTP
// code stay columns: the status page and the RED totals add them up in SQL.
// Latencies are hundredths of a millisecond (the checkers' precision) as zigzag varints; a sum
// carrying float noise (276.4500000000001) is kept as its hundredths (276.45), the value the
// checks added up to; anything else that is not a whole number of hundredths is kept as float64.
// The sketch is its buckets as key gaps and counts, bit-packed as exponential-Golomb codes.
// About 45 bytes for an hour of minute checks, against ~215 characters of text before.

import { LatencySketch } from './latency-sketch.ts';
import { BitReader, BitWriter, bestOrder, Reader, Writer, unzigzag, zigzag } from './packed-ints.ts';

export const ROLLUP_DETAIL_VERSION = 1;
/** First byte of the rows migration 0114 moved without re-encoding them: `{` of a JSON object */
const LEGACY_JSON = 0x7b;

export interface RollupDetail {
  sum_response_ms: number;
  min_response_ms: number | null;
  max_response_ms: number | null;
  p95_response_ms: number | null;
  last_status: string | null;
  last_checked_at: number | null;
  /** LatencySketch text ('' without timed responses) */
  response_sketch: string;
  /** JSON of [sum ms, checks] per phase (dns, connect, tls, ttfb); null in rows older than migration 0106 */
  phase_sums: string | null;
  /**
   * The sketch and the phase sums as objects, for the result writer, which reads a row, adds
   * results and writes it back several times a second: encoded from these, and decoded into
   * these by decodeRollupDetailLive, without their text forms in between (the texts' printing
   * and parsing were a fifth of storing a probe result's rollups, bench:probe-drain profile).
   */
  sketch?: LatencySketch;
  phases?: Record<string, [number, number]>;
}

const STATUSES = ['operational', 'degraded', 'down', 'unknown'];
const PHASES = ['dns', 'connect', 'tls', 'ttfb'] as const;
const text = new TextEncoder();
const untext = new TextDecoder('utf-8', { fatal: true });

/** v × 100 as an integer when v is a whole number of hundredths up to float noise, else null. */
function hundredths(v: number): number | null {
  if (!Number.isFinite(v) || Object.is(v, -0)) return null;
  const h = Math.round(v * 100);
  if (!Number.isSafeInteger(h) || Math.abs(h) > 2 ** 50) return null;
  return Math.abs(h - v * 100) <= 1e-6 * Math.max(1, Math.abs(h)) ? h : null;
}

/** A nullable number as a varint tag: 0 null, 1 float64 follows, else zigzag(scaled) + 2. */
function putNumber(w: Writer, v: number | null, scale: 'hundredths' | 'whole', base = 0): void {
  if (v === null) {
    w.varint(0);
    return;
  }
  const h = scale === 'hundredths' ? hundredths(v) : Number.isSafeInteger(v - base) ? v - base : null;
  if (h === null) {
    w.varint(1);
    w.float(v);
    return;
  }
  w.varint(zigzag(h) + 2);
}

function getNumber(r: Reader, scale: 'hundredths' | 'whole', base = 0): number | null {
  const tag = r.varint();
  if (tag === 0) return null;
  if (tag === 1) return r.float();
  const h = unzigzag(tag - 2);
  return scale === 'hundredths' ? h / 100 : h + base;
}

function putText(w: Writer, s: string): void {
  const b = text.encode(s);
  w.varint(b.length);
  w.bytes(b);
}

function putSketch(w: Writer, s: LatencySketch): void {
  const keys = [...s.counts.keys()].sort((a, b) => a - b);
  w.varint(s.zero);
  w.varint(keys.length);
  if (keys.length === 0) return;
  const gaps = keys.map((k, i) => (i === 0 ? zigzag(k) : k - keys[i - 1] - 1));
  const counts = keys.map((k) => s.counts.get(k)! - 1);
  const bits = new BitWriter();
  for (const column of [gaps, counts]) {
    const order = bestOrder(column);
    bits.bits(order, 6);
    for (const v of column) bits.golomb(v, order);
  }
  const packed = bits.done();
  w.varint(packed.length);
  w.bytes(packed);
}

/** Reads a sketch into `s` (added to what it holds). */
function getSketch(r: Reader, s: LatencySketch): void {
  const zero = r.varint();
  s.zero += zero;
  s.total += zero;
  const n = r.varint();
  if (n > 100_000) throw new RangeError('rollup detail: bad sketch size');
  if (n > 0) {
    const bits = new BitReader(r.bytes(r.varint()));
    const column = () => {
      const order = bits.bits(6);
      return Array.from({ length: n }, () => bits.golomb(order));
    };
    const gaps = column();
    const counts = column();
    let key = 0;
    gaps.forEach((g, i) => {
      key = i === 0 ? unzigzag(g) : key + g + 1;
      s.counts.set(key, (s.counts.get(key) ?? 0) + counts[i] + 1);
      s.total += counts[i] + 1;
    });
  }
}

/** The phase sums as [sum, checks] pairs in PHASES order when the text is exactly that shape. */
function phasePairs(json: string): Array<[number, number]> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  return pairsOf(parsed);
}

/** The same of the parsed value. */
function pairsOf(parsed: unknown): Array<[number, number]> | null {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const obj = parsed as Record<string, unknown>;
  if (Object.keys(obj).join() !== PHASES.join()) return null;
  const pairs: Array<[number, number]> = [];
  for (const p of PHASES) {
    const v = obj[p];
    if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'number' || !Number.isSafeInteger(v[1]) || v[1] < 0) return null;
    pairs.push([v[0], v[1]]);
  }
  return pairs;
}

export function encodeRollupDetail(d: RollupDetail, start: number): Uint8Array {
  const w = new Writer();
  w.byte(ROLLUP_DETAIL_VERSION);
  putNumber(w, d.sum_response_ms, 'hundredths');
  putNumber(w, d.min_response_ms, 'hundredths');
  putNumber(w, d.max_response_ms, 'hundredths');
  putNumber(w, d.p95_response_ms, 'hundredths');
  const status = d.last_status === null ? 0 : STATUSES.indexOf(d.last_status) + 1;
  w.varint(status > 0 || d.last_status === null ? status : STATUSES.length + 1);
  if (status === 0 && d.last_status !== null) putText(w, d.last_status);
  putNumber(w, d.last_checked_at, 'whole', start);
  putSketch(w, d.sketch ?? LatencySketch.parse(d.response_sketch));
  const phaseText = d.phases ? null : d.phase_sums;
  const pairs = d.phases ? pairsOf(d.phases) : phaseText === null ? null : phasePairs(phaseText);
  if (!d.phases && phaseText === null) w.varint(0);
  else if (pairs === null) {
    w.varint(2);
    putText(w, phaseText ?? JSON.stringify(d.phases));
  } else {
    w.varint(1);
    for (const [sum, n] of pairs) {
      putNumber(w, sum, 'hundredths');
      w.varint(n);
    }
  }
  return w.done();
}

/** A row migration 0114 moved: its old columns as a JSON object (numbers and texts, or null). */
function legacyDetail(data: Uint8Array): RollupDetail {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(untext.decode(data)) as Record<string, unknown>;
  } catch {
    throw new RangeError('rollup detail: bad legacy value');
  }
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    sum_response_ms: num(o.sum_response_ms) ?? 0,
    min_response_ms: num(o.min_response_ms),
    max_response_ms: num(o.max_response_ms),
    p95_response_ms: num(o.p95_response_ms),
    last_status: str(o.last_status),
    last_checked_at: num(o.last_checked_at),
    response_sketch: str(o.response_sketch) ?? '',
    phase_sums: str(o.phase_sums),
  };
}

/** Throws RangeError on a damaged value. */
export function decodeRollupDetail(data: Uint8Array, start: number): RollupDetail {
  if (data[0] === LEGACY_JSON) return legacyDetail(data);
  const sketch = new LatencySketch();
  const d = readDetail(data, start, sketch);
  d.response_sketch = sketch.serialize();
  if (d.phases) d.phase_sums = JSON.stringify(d.phases);
  delete d.phases;
  return d;
}

/**
 * For a row about to be added to and written back (the result writer): `sketch` and `phases` as
 * objects, which encode takes as they are; `response_sketch` is left '' and `phase_sums` null
 * when `phases` is set, so only the writer reads these records.
 */
export function decodeRollupDetailLive(data: Uint8Array, start: number): RollupDetail & { sketch: LatencySketch } {
  if (data[0] === LEGACY_JSON) {
    const d = legacyDetail(data);
    return { ...d, sketch: LatencySketch.parse(d.response_sketch) };
  }
  const sketch = new LatencySketch();
  return { ...readDetail(data, start, sketch), sketch };
}

/**
 * Adds a rollup's latency sketch into `into` and answers its maximum: what long-range reports
 * need of each of their many rows, without the text form in between.
 */
export function mergeRollupLatency(data: Uint8Array, into: LatencySketch): number | null {
  if (data[0] === LEGACY_JSON) {
    const d = legacyDetail(data);
    into.mergeText(d.response_sketch);
    return d.max_response_ms;
  }
  return readDetail(data, 0, into).max_response_ms;
}

/** The binary form; its sketch goes into `sketch`, response_sketch is left ''. */
function readDetail(data: Uint8Array, start: number, sketch: LatencySketch): RollupDetail {
  const r = new Reader(data);
  const version = r.byte();
  if (version !== ROLLUP_DETAIL_VERSION) throw new RangeError(`rollup detail: unknown version ${version}`);
  const getText = () => {
    try {
      return untext.decode(r.bytes(r.varint()));
    } catch {
      throw new RangeError('rollup detail: bad text');
    }
  };
  const sum = getNumber(r, 'hundredths');
  const min = getNumber(r, 'hundredths');
  const max = getNumber(r, 'hundredths');
  const p95 = getNumber(r, 'hundredths');
  const statusTag = r.varint();
  const lastStatus = statusTag === 0 ? null : statusTag <= STATUSES.length ? STATUSES[statusTag - 1] : getText();
  const lastCheckedAt = getNumber(r, 'whole', start);
  getSketch(r, sketch);
  const phasesTag = r.varint();
  let phaseSums: string | null = null;
  let phases: Record<string, [number, number]> | undefined;
  if (phasesTag === 2) phaseSums = getText();
  else if (phasesTag === 1) {
    phases = {};
    for (const p of PHASES) phases[p] = [getNumber(r, 'hundredths') ?? 0, r.varint()];
  } else if (phasesTag !== 0) throw new RangeError('rollup detail: bad phase sums');
  if (r.rest().length !== 0) throw new RangeError('rollup detail: trailing bytes');
  return {
    sum_response_ms: sum ?? 0,
    min_response_ms: min,
    max_response_ms: max,
    p95_response_ms: p95,
    last_status: lastStatus,
    last_checked_at: lastCheckedAt,
    response_sketch: '',
    phase_sums: phaseSums,
    ...(phases ? { phases } : {}),
  };
}
