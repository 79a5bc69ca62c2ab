// A pure function of a request's text (a Host header, a URL, an Accept-Encoding value) remembered
// per distinct text, for the work every request repeats with the same few values. Bounded: the
// keys come from clients, so past `max` keys it starts afresh, and long keys are never kept.
export interface RequestMemo<T> {
  (key: string): T;
  /** keys remembered now */
  size(): number;
}

export function requestMemo<T>(fn: (key: string) => T, opts: { max?: number; maxKeyLength?: number } = {}): RequestMemo<T> {
  const max = opts.max ?? 1000;
  const maxKeyLength = opts.maxKeyLength ?? 256;
  const known = new Map<string, T>();
  const memo = (key: string): T => {
    const hit = known.get(key);
    if (hit !== undefined || known.has(key)) return hit as T;
    const value = fn(key);
    if (key.length <= maxKeyLength) {
      if (known.size >= max) known.clear();
      known.set(key, value);
    }
    return value;
  };
  memo.size = () => known.size;
  return memo;
}
