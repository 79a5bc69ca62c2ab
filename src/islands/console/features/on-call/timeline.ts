// Where the timeline draws things: each shift as a share of the shown range (clipped to it), and
// the midnights of the schedule's zone as the day lines (a day there lasts 23 or 25 hours across a
// daylight-saving change, so the lines are not evenly spaced). Pure.
import { msToZonedInput, zonedInputToMs } from '../../../../lib/zoned-time.ts';
import { t } from '../../i18n.ts';
import { weekdayLabel } from './editor.ts';
import type { Weekday } from './store.ts';

export interface Span {
  start: number;
  end: number;
}

export interface Placed<T> {
  item: T;
  /** percent of the range's width */
  left: number;
  width: number;
}

/** The items that fall in [from, to), placed in percent of it, cut at its edges. */
export function place<T extends Span>(items: readonly T[], from: number, to: number): Placed<T>[] {
  const total = to - from;
  if (total <= 0) return [];
  return items
    .filter((s) => s.end > from && s.start < to && s.end > s.start)
    .map((item) => {
      const a = Math.max(item.start, from);
      const b = Math.min(item.end, to);
      return { item, left: ((a - from) / total) * 100, width: ((b - a) / total) * 100 };
    });
}

export interface DayLine {
  at: number;
  /** percent of the range's width */
  left: number;
  /** 'Mon 30' */
  label: string;
}

const WEEKDAY: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The midnights of `zone` in [from, to), and the day each begins. */
export function dayLines(from: number, to: number, zone: string): DayLine[] {
  const lines: DayLine[] = [];
  let day = msToZonedInput(from, zone).slice(0, 10);
  for (let i = 0; i < 400; i++) {
    const at = zonedInputToMs(`${day}T00:00`, zone);
    if (at >= to) break;
    const d = new Date(`${day}T00:00:00Z`);
    if (at >= from)
      lines.push({
        at,
        left: ((at - from) / (to - from)) * 100,
        label: t('onCall.timeline.day', { weekday: weekdayLabel(WEEKDAY[d.getUTCDay()]), day: d.getUTCDate() }),
      });
    day = new Date(d.getTime() + 86_400_000).toISOString().slice(0, 10);
  }
  return lines;
}
