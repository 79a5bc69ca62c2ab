// A query parameter that is an array of strings or numbers, written as PostgreSQL's array literal
// with one join, before node-postgres sees it. node-postgres writes the same text (utils.js
// arrayString) by adding each element's quoted copy to a growing string: in the probe ingest
// thread that was the largest source of garbage, about 290 KB a delivery call of 333 results (a
// quarter of all it allocated, measured with V8's sampling heap profiler over 30 s of the
// `replay` bench), and the young-generation collections it brings pause every call under way.
// Anything else (nulls aside: nested arrays, bytes, dates, objects) is left to node-postgres.

const NEEDS_ESCAPE = /["\\]/;

const quoted = (s: string) => (NEEDS_ESCAPE.test(s) ? `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : `"${s}"`);

/** The literal node-postgres would write for this array, or null when it holds anything but strings, numbers, booleans and nulls */
export function pgArrayLiteral(values: readonly unknown[]): string | null {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === 'string') parts[i] = quoted(v);
    else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') parts[i] = quoted(String(v));
    else if (v === null || v === undefined) parts[i] = 'NULL';
    else return null;
  }
  return `{${parts.join(',')}}`;
}

/** A statement's parameters with each plain array as its literal */
export function withArrayLiterals(values: readonly unknown[]): readonly unknown[] {
  // most statements have no array: they keep their own list (this runs for every query)
  if (!values.some(Array.isArray)) return values;
  return values.map((v) => (Array.isArray(v) ? (pgArrayLiteral(v) ?? v) : v));
}
