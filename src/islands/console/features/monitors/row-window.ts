// Which rows of a long list to render and which blocks of it to fetch (the Monitors list holds up
// to 10,000 rows). Pure maths in pixels and row indexes; the list component measures, this decides.

/** Rows [start, end) of a list. */
export interface RowRange {
  start: number;
  end: number;
}

export interface WindowInput {
  /** Top of row 0 relative to the top of the viewport (negative once scrolled past). */
  listTop: number;
  viewportHeight: number;
  /** Height of one row (measured; rows of the phone layout are taller). */
  rowHeight: number;
  total: number;
  /** Rows rendered beyond each edge, so Tab and quick scrolls meet rendered rows. */
  overscan: number;
}

/** The rows in or near the viewport; empty when the list is entirely off screen or empty. */
export function visibleRows({ listTop, viewportHeight, rowHeight, total, overscan }: WindowInput): RowRange {
  if (total <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(-listTop / rowHeight);
  const last = Math.ceil((viewportHeight - listTop) / rowHeight);
  const start = Math.min(total, Math.max(0, first - overscan));
  const end = Math.max(start, Math.min(total, last + overscan));
  return { start, end };
}

/** The blocks (of `blockSize` rows, block b = rows [b*size, (b+1)*size)) that hold a range. */
export function blocksOf(range: RowRange, blockSize: number): number[] {
  if (range.end <= range.start) return [];
  const out: number[] = [];
  for (let b = Math.floor(range.start / blockSize); b <= Math.floor((range.end - 1) / blockSize); b++) out.push(b);
  return out;
}

/**
 * The estimated height of any row: the mean of every row measured so far, each counted once by
 * its key. Rendered rows differ in height (long targets wrap, push rows are short); a mean of
 * only the rows on screen would move the window, which changes the rows on screen, which moves
 * the mean back: React stops such a loop with an error. Counting each row once, the estimate
 * only changes when a row is seen for the first time, so it settles.
 */
export class RowHeights {
  private readonly heights = new Map<string, number>();
  private sum = 0;

  /** Records the rows not measured before; answers the mean, or null before any row. */
  measure(rows: Iterable<[key: string, height: number]>): number | null {
    for (const [key, height] of rows) {
      if (this.heights.has(key)) continue;
      this.heights.set(key, height);
      this.sum += height;
    }
    return this.heights.size === 0 ? null : this.sum / this.heights.size;
  }

  /** Forgets every row (a new width wraps them differently). */
  clear(): void {
    this.heights.clear();
    this.sum = 0;
  }
}
