import { describe, expect, it } from 'vitest';
import {
  HOUR_MS,
  DAY_MS,
  blockTooltip,
  dailyBarTone,
  barsMarkup,
  dailyBars,
  dailyBarsBetween,
  dailyData,
  dailyItemsHtml,
  timelineItemsHtml,
  displayHttpCode,
  hourlyBlocks,
  hourlyTimeline,
  joinMarkup,
  periodStatus,
  tallySince,
  uptimeOf,
  uptimePercent,
  uptimeSince,
  type RollupCounts,
} from './timeline.ts';
import { brandColor, formatMs, hourLabel, impactOf, overallIcon, overallOf, type Impact, type Status } from './status.ts';

const T0 = Date.UTC(2026, 10, 22, 14, 37, 12); // 14:37:12 UTC
const H = (hoursAgo: number) => Date.UTC(2026, 10, 22, 14) - hoursAgo * HOUR_MS;
const roll = (start: number, over: Partial<RollupCounts> = {}): RollupCounts => ({
  start,
  checks: 60,
  failures: 0,
  degraded: 0,
  maintenance: 0,
  lastHttpCode: 200,
  ...over,
});

describe('periodStatus', () => {
  it.each([
    ['no rollup', undefined, 'unknown'],
    ['zero checks', roll(0, { checks: 0 }), 'unknown'],
    ['all fine', roll(0), 'operational'],
    ['one failure', roll(0, { failures: 1 }), 'degraded'],
    ['degraded checks', roll(0, { degraded: 3 }), 'degraded'],
    ['all failed', roll(0, { failures: 60 }), 'down'],
    ['all failed outside maintenance', roll(0, { failures: 30, maintenance: 30 }), 'down'],
    ['only maintenance', roll(0, { maintenance: 60 }), 'maintenance'],
  ] as const)('%s → %s', (_n, r, expected) => expect(periodStatus(r)).toBe(expected));
});

describe('hourlyTimeline', () => {
  it('gives 24 one-hour blocks in UTC ending with the current hour', () => {
    const blocks = hourlyTimeline([], T0);
    expect(blocks).toHaveLength(24);
    expect(new Date(blocks[0].start).toISOString()).toBe('2026-11-21T15:00:00.000Z');
    expect(new Date(blocks[23].start).toISOString()).toBe('2026-11-22T14:00:00.000Z');
    expect(new Date(blocks[23].end).toISOString()).toBe('2026-11-22T15:00:00.000Z');
    for (let i = 1; i < 24; i++) expect(blocks[i].start - blocks[i - 1].start).toBe(HOUR_MS);
    expect(blocks.every((b) => b.status === 'unknown' && b.httpCode === null)).toBe(true);
  });

  it('maps a scripted history onto the blocks and ignores rows outside the window', () => {
    const history = [
      roll(H(24), { failures: 60, lastHttpCode: 500 }), // outside (25th hour back)
      roll(H(23)),
      roll(H(10), { failures: 60, lastHttpCode: 503 }),
      roll(H(9), { failures: 2, lastHttpCode: 200 }),
      roll(H(0), { lastHttpCode: null }),
    ];
    const blocks = hourlyTimeline(history, T0);
    expect(blocks[0]).toMatchObject({ status: 'operational', httpCode: 200 });
    expect(blocks[13]).toMatchObject({ status: 'down', httpCode: 503 });
    expect(blocks[14]).toMatchObject({ status: 'degraded', httpCode: 200 });
    expect(blocks[1].status).toBe('unknown');
    expect(blocks[23]).toMatchObject({ status: 'operational', httpCode: null });
    expect(blocks[23].tooltip).toBe('14:00–15:00 UTC · Operational · HTTP 200');
    expect(blocks[13].tooltip).toBe('04:00–05:00 UTC · Down · HTTP 503');
    expect(blocks[1].tooltip).toBe('16:00–17:00 UTC · Unknown · HTTP n/a');
  });

  it('moves one block when the hour turns', () => {
    const a = hourlyTimeline([], Date.UTC(2026, 0, 1, 23, 59, 59, 999));
    const b = hourlyTimeline([], Date.UTC(2026, 0, 2, 0, 0, 0, 0));
    expect(b[0].start - a[0].start).toBe(HOUR_MS);
    expect(new Date(b[23].start).toISOString()).toBe('2026-01-02T00:00:00.000Z');
  });
});

describe('tooltips and codes', () => {
  it('shows 200 for an operational block without a code, nothing invented otherwise', () => {
    expect(displayHttpCode('operational', null)).toBe(200);
    expect(displayHttpCode('down', null)).toBe(null);
    expect(displayHttpCode('down', 502)).toBe(502);
    expect(blockTooltip(Date.UTC(2026, 0, 1, 23), 'degraded', 429)).toBe('23:00–00:00 UTC · Degraded · HTTP 429');
  });
});

describe('uptime', () => {
  it('counts failed checks against checks outside maintenance', () => {
    expect(uptimePercent([])).toBe(null);
    expect(uptimePercent([roll(0, { checks: 100, failures: 1 })])).toBeCloseTo(99);
    expect(uptimePercent([roll(0, { checks: 100, failures: 10, maintenance: 50 })])).toBeCloseTo(80);
    expect(uptimePercent([roll(0, { checks: 10, maintenance: 10 })])).toBe(null);
  });

  it('limits a window to rollups that started within it', () => {
    const rows = [roll(T0 - 2 * DAY_MS, { failures: 60 }), roll(T0 - HOUR_MS)];
    expect(uptimeSince(rows, T0, DAY_MS)).toBe(100);
    expect(uptimeSince(rows, T0, 7 * DAY_MS)).toBe(50);
  });

  it('draws 90 daily bars ending today with tones', () => {
    const today = Date.UTC(2026, 10, 22);
    const bars = dailyBars([roll(today, { checks: 1000, failures: 5 }), roll(today - DAY_MS, { checks: 100, failures: 50 })], T0);
    expect(bars).toHaveLength(90);
    expect(bars[89]).toMatchObject({ day: today, tone: 'warn' });
    expect(bars[89].uptime).toBeCloseTo(99.5);
    expect(bars[88].tone).toBe('bad');
    expect(bars[0]).toMatchObject({ day: today - 89 * DAY_MS, uptime: null, tone: 'none' });
  });
});

describe('daily bar colours', () => {
  it.each([
    [100, 'good'],
    [99.95, 'good'],
    [99.9, 'warn'], // "above 99.9" is green: exactly 99.9 is not
    [99.5, 'warn'],
    [99, 'bad'], // "above 99" is amber: exactly 99 is not
    [50, 'bad'],
    [null, 'none'],
  ] as const)('%s%% uptime is %s', (p, tone) => {
    expect(dailyBarTone(p)).toBe(tone);
  });
});

describe('timeline HTML', () => {
  it('renders the blocks and bars as list items with escaped text', () => {
    const blocks = hourlyTimeline([roll(H(0), { failures: 60, lastHttpCode: 503 })], T0);
    const html = timelineItemsHtml(blocks);
    expect(html.match(/<li /g)).toHaveLength(24);
    expect(html).toContain('<li class="s-down" aria-label="14:00–15:00 UTC · Down · HTTP 503"></li>');
    const evil = timelineItemsHtml([{ ...blocks[0], tooltip: '"><script>&' }]);
    expect(evil).toBe('<li class="s-unknown" aria-label="&quot;>&lt;script>&amp;"></li>');
    const bars = dailyBars([roll(Date.UTC(2026, 10, 22), { checks: 1000, failures: 5 })], T0);
    expect(dailyItemsHtml(bars).match(/<li class="t-none"><\/li>/g)).toHaveLength(89);
    expect(dailyItemsHtml(bars).endsWith('<li class="t-warn"></li>')).toBe(true);
    expect(dailyData(bars)).toBe(`${','.repeat(89)}99.50`);
    const good = dailyBars([roll(Date.UTC(2026, 10, 22), { checks: 100, failures: 0 })], T0);
    expect(dailyItemsHtml(good).endsWith('<li class="t-none"></li><li></li>')).toBe(true); // a good day: the default colour
  });
});

describe('runs of the timeline and the bar', () => {
  it('makes the same blocks, bars and markup in two runs as in one', () => {
    const today = Date.UTC(2026, 10, 22);
    const hourly = [
      roll(H(0), { failures: 60, lastHttpCode: 503 }),
      roll(H(1), { failures: 1 }),
      roll(H(2)),
      roll(H(5), { checks: 0 }),
      roll(H(23)),
    ];
    const daily = [
      roll(today, { failures: 30 }),
      roll(today - DAY_MS, { checks: 10, maintenance: 10 }),
      roll(today - 2 * DAY_MS),
      roll(today - 89 * DAY_MS, { failures: 1 }),
    ];
    const whole = { blocks: hourlyTimeline(hourly, T0), bars: dailyBars(daily, T0) };
    const blocks = [...hourlyBlocks(hourly, H(23), H(2)), ...hourlyBlocks(hourly, H(1), H(0))];
    const bars = [...dailyBarsBetween(daily, today - 89 * DAY_MS, today - 2 * DAY_MS), ...dailyBarsBetween(daily, today - DAY_MS, today)];
    expect(blocks).toEqual(whole.blocks);
    expect(bars).toEqual(whole.bars);
    const joined = joinMarkup(barsMarkup(blocks.slice(0, 22), bars.slice(0, 88)), barsMarkup(blocks.slice(22), bars.slice(88)));
    expect(joined).toEqual(barsMarkup(whole.blocks, whole.bars));
    // a run ending on a day without data keeps its place in the figures
    const gap = joinMarkup(barsMarkup([], bars.slice(86, 87)), barsMarkup([], bars.slice(87, 89)));
    expect(gap.dailyData).toBe(dailyData(bars.slice(86, 89)));
    // the uptime of a window from the tallies of two runs of rollups
    const settled = daily.slice(2);
    const live = daily.slice(0, 2);
    for (const days of [7, 30, 90]) {
      const ms = days * DAY_MS;
      expect(uptimeOf(tallySince(settled, T0, ms), tallySince(live, T0, ms))).toBe(uptimeSince(daily, T0, ms));
    }
    expect(uptimeOf(tallySince([], T0, DAY_MS))).toBe(null);
  });
});

describe('status helpers', () => {
  // one rule for the page, its badges, its Statuspage JSON and its feeds
  it.each([
    [[], [], false, 'unknown', 'none', 'Status Unknown'],
    [['operational', 'operational'], [], false, 'operational', 'none', 'All Systems Operational'],
    // a shown monitor without a confirmed status (new, or paused) is not claimed operational
    [['operational', 'unknown'], [], false, 'unknown', 'none', 'Some Systems Unknown'],
    [['unknown'], [], false, 'unknown', 'none', 'Status Unknown'],
    [['operational', 'degraded', 'unknown'], [], false, 'degraded', 'minor', 'Some Systems Degraded'],
    [['operational', 'unknown'], [], true, 'maintenance', 'maintenance', 'Service Under Maintenance'],
    [['operational', 'unknown'], ['low'], false, 'degraded', 'minor', 'Some Systems Degraded'],
    [['operational', 'degraded'], [], false, 'degraded', 'minor', 'Some Systems Degraded'],
    [['operational', 'down'], [], false, 'degraded', 'major', 'Partial System Outage'],
    [['down', 'down'], [], false, 'down', 'critical', 'Major Service Outage'],
    [['down', 'unknown'], [], false, 'down', 'critical', 'Major Service Outage'],
    [['maintenance'], [], false, 'maintenance', 'maintenance', 'Service Under Maintenance'],
    [['operational', 'maintenance'], [], false, 'maintenance', 'maintenance', 'Service Under Maintenance'],
    [['operational'], [], true, 'maintenance', 'maintenance', 'Service Under Maintenance'],
    [['operational'], ['low'], false, 'degraded', 'minor', 'Some Systems Degraded'],
    [['operational'], ['high'], true, 'degraded', 'major', 'Partial System Outage'],
    [['operational', 'degraded'], ['critical'], false, 'down', 'critical', 'Major Service Outage'],
    [[], ['medium'], false, 'degraded', 'minor', 'Some Systems Degraded'],
  ] as const)('overall of %j with incidents %j (maintenance %s) is %s / %s', (list, incidents, maintenance, status, indicator, text) =>
    expect(
      overallOf(
        list.map((s) => ({ status: s, outage: 'major' as const })),
        incidents.map((s) => impactOf(s)),
        maintenance,
      ),
    ).toEqual({ status, indicator, text }),
  );

  // issue 25: one failing check of five is a partial outage, not a major one; a monitor marked
  // critical (outage 'critical') or an impact an admin gave its incident decides otherwise
  const up = (n: number) => Array.from({ length: n }, () => ({ status: 'operational' as Status, outage: 'major' as Impact }));
  const down = (outage: Impact) => ({ status: 'down' as Status, outage });
  it.each([
    ['one of five down', [...up(4), down('major')], ['major'], 'degraded', 'major', 'Partial System Outage'],
    [
      'every one of five down',
      [down('major'), down('major'), down('major'), down('major'), down('major')],
      [],
      'down',
      'critical',
      'Major Service Outage',
    ],
    ['a critical monitor down', [...up(4), down('critical')], ['critical'], 'down', 'critical', 'Major Service Outage'],
    [
      'a down monitor whose incident an admin set to minor',
      [...up(4), down('minor')],
      ['minor'],
      'degraded',
      'minor',
      'Some Systems Degraded',
    ],
    ['all down, one set to minor', [down('major'), down('minor')], [], 'degraded', 'major', 'Partial System Outage'],
    ['one of five down, a critical incident open', [...up(4), down('major')], ['critical'], 'down', 'critical', 'Major Service Outage'],
  ] as const)('%s', (_name, components, impacts, status, indicator, text) =>
    expect(overallOf([...components], [...impacts], false)).toEqual({ status, indicator, text }),
  );

  it('picks the icon of the overall card', () => {
    expect([
      overallIcon('operational'),
      overallIcon('degraded'),
      overallIcon('down'),
      overallIcon('unknown'),
      overallIcon('maintenance'),
    ]).toEqual(['✓', '⚠', '✕', '?', '?']);
  });

  it('accepts only #rrggbb colours', () => {
    expect(brandColor('#A1b2C3', '#007bff')).toBe('#a1b2c3');
    for (const bad of ['red', '#fff', '#1234567', 'url(x)', '#12345g;}', null, 7]) expect(brandColor(bad, '#007bff')).toBe('#007bff');
  });

  it('formats response times with 2 decimals', () => {
    expect(formatMs(123.456)).toBe('123.46 ms');
    expect(formatMs(0)).toBe('0.00 ms');
    expect(formatMs(null)).toBe('—');
  });
});

describe('hour labels', () => {
  it('formats an instant as its UTC HH:MM, across midnight too', () => {
    for (const ms of [
      0,
      Date.UTC(2026, 10, 22, 9, 5),
      Date.UTC(2026, 10, 22, 23, 59, 59),
      Date.UTC(2026, 10, 23, 0, 0),
      Date.UTC(2000, 1, 29, 12, 30),
    ]) {
      expect(hourLabel(ms)).toBe(new Date(ms).toISOString().slice(11, 16));
    }
  });
});
