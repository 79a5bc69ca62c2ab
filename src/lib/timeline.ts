// Timeline maths of the public status page (section 9 of the spec): 24 blocks of one hour in
// UTC, ending with the current hour, computed from hourly rollups; and 90 daily uptime bars from
// daily rollups. Pure: `now` is an argument, no I/O.
import { uptimeTone, type Tone } from './thresholds.ts';
import { STATUS_LABEL, hourLabel, type BarsMarkup, type DailyBarView, type Status, type TimelineBlockView } from './status.ts';
import { escapeAttr } from './html-escape.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const TIMELINE_BLOCKS = 24;
export const DAILY_BARS = 90;

/** The columns of a rollup row the timeline needs (hourly or daily). */
export interface RollupCounts {
  start: number;
  checks: number;
  failures: number;
  degraded: number;
  maintenance: number;
  lastHttpCode: number | null;
}

export const hourStart = (ms: number): number => Math.floor(ms / HOUR_MS) * HOUR_MS;
export const dayStart = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * Status of one period from its counts: no checks → unknown; only maintenance → maintenance;
 * every counted check failed → down; any failure or degraded check → degraded; else operational.
 */
export function periodStatus(r: RollupCounts | undefined): Status {
  if (!r || r.checks <= 0) return 'unknown';
  const counted = r.checks - r.maintenance;
  if (counted <= 0) return 'maintenance';
  if (r.failures >= counted) return 'down';
  if (r.failures > 0 || r.degraded > 0) return 'degraded';
  return 'operational';
}

/** The HTTP code a block's tooltip shows: an operational block without a code shows 200. */
export function displayHttpCode(status: Status, code: number | null): number | null {
  return code ?? (status === 'operational' ? 200 : null);
}

export function blockTooltip(start: number, status: Status, code: number | null): string {
  const shown = displayHttpCode(status, code);
  return `${hourLabel(start)}–${hourLabel(start + HOUR_MS)} UTC · ${STATUS_LABEL[status]} · HTTP ${shown ?? 'n/a'}`;
}

/**
 * The 24 hourly blocks up to and including the current hour. The first block starts at the hour
 * of the first entry of the window (now's hour minus 23); hours without checks are 'unknown'.
 */
export function hourlyTimeline(rollups: RollupCounts[], now: number): TimelineBlockView[] {
  const last = hourStart(now);
  return hourlyBlocks(rollups, last - (TIMELINE_BLOCKS - 1) * HOUR_MS, last);
}

/**
 * The blocks of the hours from `first` to `last` (both hour starts, inclusive): a run of the
 * timeline, so the hours that no longer change can be made once and joined with the live ones.
 */
export function hourlyBlocks(rollups: RollupCounts[], first: number, last: number): TimelineBlockView[] {
  const byHour = new Map<number, RollupCounts>();
  for (const r of rollups) if (r.start >= first && r.start <= last) byHour.set(hourStart(r.start), r);
  const blocks: TimelineBlockView[] = [];
  for (let start = first; start <= last; start += HOUR_MS) {
    const r = byHour.get(start);
    const status = periodStatus(r);
    const httpCode = r?.lastHttpCode ?? null;
    blocks.push({ start, end: start + HOUR_MS, status, httpCode, tooltip: blockTooltip(start, status, httpCode) });
  }
  return blocks;
}

/** Uptime percent of a set of periods: checks that did not fail, maintenance excluded. */
export function uptimePercent(rollups: ReadonlyArray<Pick<RollupCounts, 'checks' | 'failures' | 'maintenance'>>): number | null {
  let counted = 0;
  let failed = 0;
  for (const r of rollups) {
    const c = Math.max(0, r.checks - r.maintenance);
    counted += c;
    failed += Math.min(r.failures, c);
  }
  return counted > 0 ? ((counted - failed) / counted) * 100 : null;
}

/** Uptime of the rollups whose start is within the last `ms` (inclusive of the current period). */
export function uptimeSince(rollups: RollupCounts[], now: number, ms: number): number | null {
  return uptimeOf(tallySince(rollups, now, ms));
}

/** The two sums of an uptime: checks counted (maintenance excluded) and those of them that failed. */
export interface UptimeTally {
  counted: number;
  failed: number;
}

/**
 * The tally of the rollups whose start is within the last `ms`, in one pass (no filtered copy):
 * tallies of periods that no longer change are kept and added to the live ones (uptimeOf).
 */
export function tallySince(rollups: RollupCounts[], now: number, ms: number): UptimeTally {
  let counted = 0;
  let failed = 0;
  for (const r of rollups) {
    if (!(r.start > now - ms && r.start <= now)) continue;
    const c = Math.max(0, r.checks - r.maintenance);
    counted += c;
    failed += Math.min(r.failures, c);
  }
  return { counted, failed };
}

/** Uptime percent of these tallies together; null without counted checks. */
export function uptimeOf(...tallies: UptimeTally[]): number | null {
  let counted = 0;
  let failed = 0;
  for (const t of tallies) {
    counted += t.counted;
    failed += t.failed;
  }
  return counted > 0 ? ((counted - failed) / counted) * 100 : null;
}

const BAR_TONE = { green: 'good', amber: 'warn', red: 'bad', grey: 'none' } as const satisfies Record<Tone, DailyBarView['tone']>;

/** A daily bar's colour: the dashboard's uptime rule of section 9 (above 99.9 good, above 99 warn). */
export function dailyBarTone(p: number | null): DailyBarView['tone'] {
  return BAR_TONE[uptimeTone(p)];
}

/** 90 daily bars ending with today (UTC). */
export function dailyBars(rollups: RollupCounts[], now: number, days = DAILY_BARS): DailyBarView[] {
  const today = dayStart(now);
  return dailyBarsBetween(rollups, today - (days - 1) * DAY_MS, today);
}

/** The bars of the days from `first` to `last` (both day starts, inclusive): a run of the 90-day bar. */
export function dailyBarsBetween(rollups: RollupCounts[], first: number, last: number): DailyBarView[] {
  const byDay = new Map<number, RollupCounts>();
  for (const r of rollups) byDay.set(dayStart(r.start), r);
  const bars: DailyBarView[] = [];
  for (let day = first; day <= last; day += DAY_MS) {
    const r = byDay.get(day);
    const uptime = r ? uptimePercent([r]) : null;
    // no per-day text here: the page carries the figures once (dailyData) and the script words them
    bars.push({ day, uptime, tone: dailyBarTone(uptime) });
  }
  return bars;
}

/**
 * The <li> items of a 24-hour timeline as one HTML string (hundreds of items per page render
 * far faster as a string than as template nodes). Each block's tooltip text is its aria-label:
 * screen readers read it, CSS shows it on hover without JavaScript, the script styles it. The
 * text is ours (times, labels, codes) and is escaped anyway.
 */
export function timelineItemsHtml(blocks: TimelineBlockView[]): string {
  let out = '';
  for (const b of blocks) {
    const t = escapeAttr(b.tooltip);
    out += `<li class="s-${b.status}" aria-label="${t}"></li>`;
  }
  return out;
}

/** The <li> items of the 90-day bar as one HTML string: colour only (the per-day text is in dailyData); good days carry no class. */
export function dailyItemsHtml(bars: DailyBarView[]): string {
  let out = '';
  for (const d of bars) out += d.tone === 'good' ? '<li></li>' : `<li class="t-${d.tone}"></li>`;
  return out;
}

/**
 * The 90-day bar's per-day uptimes, comma-separated with 2 decimals ('' = no data), from which
 * the tooltip script writes each day's text. Kept out of 90 title attributes per monitor: that
 * text was a third of a 20-monitor page.
 */
export function dailyData(bars: DailyBarView[]): string {
  return bars.map((d) => (d.uptime == null ? '' : d.uptime.toFixed(2))).join(',');
}

/** The page's markup of a run of timeline blocks and a run of daily bars. */
export function barsMarkup(blocks: TimelineBlockView[], bars: DailyBarView[]): BarsMarkup {
  return { timeline: timelineItemsHtml(blocks), daily: dailyItemsHtml(bars), dailyData: dailyData(bars) };
}

/**
 * The markup of two runs one after the other, the same as that of the joined runs: the runs that
 * no longer change are made once and joined with the live ones. Each run of bars holds at least
 * one day (an empty run and a run of one day without data both have '' as their dailyData).
 */
export function joinMarkup(a: BarsMarkup, b: BarsMarkup): BarsMarkup {
  return { timeline: a.timeline + b.timeline, daily: a.daily + b.daily, dailyData: `${a.dailyData},${b.dailyData}` };
}
