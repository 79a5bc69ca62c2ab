import { describe, expect, it } from 'vitest';
import { blocksOf, RowHeights, visibleRows } from './row-window.ts';

describe('visibleRows', () => {
  const base = { viewportHeight: 800, rowHeight: 50, total: 10_000, overscan: 5 };
  it('renders the first screenful and the overscan below it when the list starts on screen', () => {
    expect(visibleRows({ ...base, listTop: 200 })).toEqual({ start: 0, end: 17 });
  });
  it('follows the scroll: a list scrolled 100,000 px up shows rows 2,000 to 2,016 and the overscan', () => {
    expect(visibleRows({ ...base, listTop: -100_000 })).toEqual({ start: 1995, end: 2021 });
  });
  it('stops at the last row', () => {
    expect(visibleRows({ ...base, listTop: -499_700 })).toEqual({ start: 9989, end: 10_000 });
  });
  it('renders nothing for a list above or below the viewport, or empty', () => {
    expect(visibleRows({ ...base, listTop: -600_000 })).toEqual({ start: 10_000, end: 10_000 });
    expect(visibleRows({ ...base, listTop: 5000 })).toEqual({ start: 0, end: 0 });
    expect(visibleRows({ ...base, total: 0, listTop: 0 })).toEqual({ start: 0, end: 0 });
  });
  it('renders every row of a short list', () => {
    expect(visibleRows({ ...base, total: 3, listTop: 100 })).toEqual({ start: 0, end: 3 });
  });
});

describe('blocksOf', () => {
  it('names each block of 100 rows a range touches', () => {
    expect(blocksOf({ start: 0, end: 17 }, 100)).toEqual([0]);
    expect(blocksOf({ start: 95, end: 205 }, 100)).toEqual([0, 1, 2]);
    expect(blocksOf({ start: 100, end: 200 }, 100)).toEqual([1]);
    expect(blocksOf({ start: 10, end: 10 }, 100)).toEqual([]);
  });
});

describe('RowHeights', () => {
  it('averages the rows seen so far, each once, so a window moving back and forth cannot swing it', () => {
    const h = new RowHeights();
    expect(h.measure([])).toBeNull();
    expect(
      h.measure([
        ['a', 50],
        ['b', 100],
      ]),
    ).toBe(75);
    // the same rows again (the window came back) leave the estimate where it was
    expect(
      h.measure([
        ['a', 50],
        ['b', 100],
      ]),
    ).toBe(75);
    expect(
      h.measure([
        ['b', 100],
        ['c', 150],
      ]),
    ).toBe(100);
    h.clear();
    expect(h.measure([['a', 60]])).toBe(60);
  });
});
