// The JSON paths of api_flow assertions and extractions: `$`, then `.name`, `['name']` or `[n]`
// segments, nothing else. Written here rather than taken from a JSONPath library: those evaluate
// filter and script expressions (`?(@...)`), which a tenant's monitor must never run, and the
// subset is a page of code. Pure.

export type JsonPathSegment = string | number;

const NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*/;

/** The path's segments, or why it is not a path in the words of the form ("…: expected ."). */
export function parseJsonPath(path: string): JsonPathSegment[] | string {
  if (!path.startsWith('$')) return 'must start with $ (e.g. $.user.id)';
  const out: JsonPathSegment[] = [];
  let i = 1;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      const m = NAME.exec(path.slice(i + 1));
      if (!m) return `expected a name after "." at character ${i + 2}`;
      out.push(m[0]);
      i += 1 + m[0].length;
    } else if (c === '[') {
      const rest = path.slice(i);
      const index = /^\[(\d{1,9})\]/.exec(rest);
      const quoted = /^\['((?:[^'\\]|\\.){1,200})'\]/.exec(rest) ?? /^\["((?:[^"\\]|\\.){1,200})"\]/.exec(rest);
      if (index) {
        out.push(Number(index[1]));
        i += index[0].length;
      } else if (quoted) {
        out.push(quoted[1].replace(/\\(.)/g, '$1'));
        i += quoted[0].length;
      } else return `only [number] and ['name'] may follow "[" (character ${i + 1}); filters and scripts are not supported`;
    } else return `unexpected "${c}" at character ${i + 1}`;
    if (out.length > 50) return 'has more than 50 segments';
  }
  return out;
}

/** The value at the path; undefined when a segment is absent. */
export function readJsonPath(doc: unknown, path: readonly JsonPathSegment[]): unknown {
  let cur: unknown = doc;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (typeof seg === 'number' ? !Array.isArray(cur) : !Object.hasOwn(cur, seg)) return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}
