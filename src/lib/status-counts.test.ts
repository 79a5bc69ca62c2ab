import { describe, expect, it } from 'vitest';
import { StatusCounts, statusClassOf } from './status-counts.ts';

describe('status counts', () => {
  it('round-trips and merges texts joined by a comma', () => {
    const a = new StatusCounts().add(200, 96).add(404, 3).add(503);
    expect(a.serialize()).toBe('200*96,404*3,503');
    const merged = StatusCounts.parse(`${a.serialize()},,200*4,503*2,junk,99*1`);
    expect(merged.top(10)).toEqual(
      [
        { code: 200, count: 100 },
        { code: 503, count: 3 },
        { code: 404, count: 3 },
      ].sort((x, y) => y.count - x.count || x.code - y.code),
    );
  });

  it('classes codes by their first digit', () => {
    expect([204, 301, 404, 599, 100, 600].map(statusClassOf)).toEqual(['2xx', '3xx', '4xx', '5xx', null, null]);
  });
});
