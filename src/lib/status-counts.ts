// Requests per HTTP status code, kept as compact text in rollup rows: `code*count` entries
// joined by commas (`200*96,404*3,503`; a lone code counts once). Two texts joined by a comma
// parse as their sum, like the latency sketch's, so SQL can merge rows by concatenation.

export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';

export function statusClassOf(code: number): StatusClass | null {
  if (code >= 200 && code < 300) return '2xx';
  if (code >= 300 && code < 400) return '3xx';
  if (code >= 400 && code < 500) return '4xx';
  if (code >= 500 && code < 600) return '5xx';
  return null;
}

export class StatusCounts {
  readonly counts = new Map<number, number>();

  add(code: number, n = 1): this {
    this.counts.set(code, (this.counts.get(code) ?? 0) + n);
    return this;
  }

  /** Adds a serialised text; entries that are not `code` or `code*count` are ignored. */
  mergeText(text: string): this {
    for (const part of text.split(',')) {
      const m = /^(\d{3})(?:\*(\d{1,12}))?$/.exec(part);
      if (m) this.add(Number(m[1]), m[2] === undefined ? 1 : Number(m[2]));
    }
    return this;
  }

  serialize(): string {
    return [...this.counts.keys()]
      .sort((a, b) => a - b)
      .map((c) => {
        const n = this.counts.get(c)!;
        return n === 1 ? String(c) : `${c}*${n}`;
      })
      .join(',');
  }

  /** The most frequent codes first (ties: lower code first). */
  top(limit: number): Array<{ code: number; count: number }> {
    return [...this.counts]
      .map(([code, count]) => ({ code, count }))
      .sort((a, b) => b.count - a.count || a.code - b.code)
      .slice(0, limit);
  }

  static parse(text: string): StatusCounts {
    return new StatusCounts().mergeText(text);
  }
}
