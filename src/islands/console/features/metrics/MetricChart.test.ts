import { describe, expect, it } from 'vitest';
import { chartColumns } from './MetricChart.tsx';

const point = (t: number, p95: number | null) => ({ t, requests: 1, errors: 0, rate: 1, errorRate: 0, p50: p95, p95, p99: p95 });

describe('metric chart columns', () => {
  it('puts the previous window under the current one, bucket for bucket', () => {
    const cols = chartColumns({
      lines: [{ label: 'p95', pick: (p) => p.p95, colour: '#000' }],
      current: [point(3_600_000, 10), point(3_660_000, null)],
      previous: [point(0, 7), point(60_000, 8)],
      shiftMs: 3_600_000,
    });
    expect(cols).toEqual([
      [3600, 3660],
      [10, null],
      [7, 8],
    ]);
  });
});
