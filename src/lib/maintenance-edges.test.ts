import { describe, expect, it } from 'vitest';
import { maintenanceEdges } from './maintenance-edges.ts';

const H = 3_600_000;
const WEEK = 7 * 24 * H;
const T0 = Date.UTC(2026, 5, 1, 22, 0, 0); // a Monday, 22:00 UTC
const once = { starts_at: T0, ends_at: T0 + H, recurrence: null, cancelled_at: null, created_at: T0 - 24 * H };
const edges = (w: Parameters<typeof maintenanceEdges>[0], from: number, to: number) =>
  maintenanceEdges(w, from, to).map((e) => [e.kind, (e.at - T0) / H, (e.start - T0) / H, (e.end - T0) / H]);

describe('maintenance edges (when notices go out)', () => {
  it('a one-off window starts and ends once, in the scan that covers each moment', () => {
    expect(edges(once, T0 - H, T0 - 1)).toEqual([]);
    expect(edges(once, T0 - 1, T0)).toEqual([['started', 0, 0, 1]]); // start included in the scan that reaches it
    expect(edges(once, T0, T0 + H - 1)).toEqual([]);
    expect(edges(once, T0 + H - 1, T0 + 2 * H)).toEqual([['ended', 1, 0, 1]]);
    expect(edges(once, T0 - H, T0 + 2 * H)).toEqual([
      ['started', 0, 0, 1],
      ['ended', 1, 0, 1],
    ]);
  });

  it('a weekly window starts and ends every week; each occurrence is named by its own start', () => {
    const weekly = { ...once, recurrence: 'weekly' };
    expect(edges(weekly, T0 + WEEK - 1, T0 + WEEK + H)).toEqual([
      ['started', 168, 168, 169],
      ['ended', 169, 168, 169],
    ]);
    expect(edges(weekly, T0 + H, T0 + 3 * WEEK - 1).filter(([k]) => k === 'started')).toHaveLength(2);
  });

  it('a window cancelled while running ends at its cancellation; one cancelled before it starts never starts', () => {
    const cancelled = { ...once, cancelled_at: T0 + 10 * 60_000 };
    expect(edges(cancelled, T0 + 60_000, T0 + 20 * 60_000)).toEqual([['ended', 1 / 6, 0, 1 / 6]]);
    expect(edges(cancelled, T0 + 20 * 60_000, T0 + 2 * H)).toEqual([]);
    expect(edges({ ...once, cancelled_at: T0 - H }, T0 - 2 * H, T0 + 2 * H)).toEqual([]);
  });

  it('a window created while its time has begun starts when it is created; one created after it ended never does', () => {
    const late = { ...once, created_at: T0 + 30 * 60_000 };
    expect(edges(late, T0 + 29 * 60_000, T0 + 31 * 60_000)).toEqual([['started', 0.5, 0, 1]]);
    expect(edges({ ...once, created_at: T0 + 2 * H }, T0 - H, T0 + 3 * H)).toEqual([]);
  });
});
