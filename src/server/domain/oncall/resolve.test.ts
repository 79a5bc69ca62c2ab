// The on-call resolution over real zones: a seeded loop (no fast-check in the project) draws
// layers in four zones (three with DST, one without) and checks a year of hand-offs.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { layerTurns, onCallAt, resolveShifts, restrictionWindows, WEEKDAYS, type Layer, type ScheduleSpec } from './resolve.ts';

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata'];
const HOUR = 3_600_000;

/** mulberry32: a small seeded generator, so a failure names its seed and repeats. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
const local = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toFormat('HH:mm');
const layer = (l: Partial<Layer>): Layer => ({
  userIds: ['ann', 'bob', 'cy'],
  rotationStart: '2026-01-05T09:00',
  handoff: 'daily',
  handoffHours: null,
  restrictions: [],
  ...l,
});

describe('hand-offs over a year in four zones', () => {
  for (let seed = 1; seed <= 24; seed++) {
    const rnd = seeded(seed);
    const zone = ZONES[seed % ZONES.length]!;
    // 02:xx does not exist on spring-forward days in these zones; every other time does.
    const hour = [0, 1, 3, 6, 8, 9, 12, 17, 18, 23][Math.floor(rnd() * 10)]!;
    const minute = [0, 15, 30, 45][Math.floor(rnd() * 4)]!;
    const handoff = rnd() < 0.5 ? 'daily' : 'weekly';
    const month = 1 + Math.floor(rnd() * 12);
    const people = ['ann', 'bob', 'cy', 'dee'].slice(0, 1 + Math.floor(rnd() * 4));
    const rotationStart = `2025-${pad(month)}-0${1 + Math.floor(rnd() * 8)}T${pad(hour)}:${pad(minute)}`;
    it(`seed ${seed}: ${handoff} at ${pad(hour)}:${pad(minute)} in ${zone}`, () => {
      const l = layer({ userIds: people, rotationStart, handoff });
      const from = DateTime.fromISO('2026-01-01T00:00', { zone }).toMillis();
      const to = DateTime.fromISO('2027-01-01T00:00', { zone }).toMillis();
      const turns = layerTurns(l, zone, from, to);
      // Every hand-off inside the year lands on the local hand-off time and the same weekday.
      const first = DateTime.fromISO(rotationStart, { zone });
      for (const t of turns.slice(1)) {
        expect(local(t.start, zone)).toBe(`${pad(hour)}:${pad(minute)}`);
        if (handoff === 'weekly') expect(DateTime.fromMillis(t.start, { zone }).weekday).toBe(first.weekday);
      }
      // A turn lasts 23, 24 or 25 hours a day (DST days), and the 23/25-hour ones exist only in DST zones.
      const perDay = handoff === 'daily' ? 1 : 7;
      const lengths = new Set(turns.slice(1, -1).map((t) => (t.end - t.start) / HOUR - 24 * (perDay - 1)));
      for (const h of lengths) expect([23, 24, 25]).toContain(h);
      if (zone === 'Asia/Kolkata') expect([...lengths]).toEqual([24]);
      else expect(lengths.has(23) && lengths.has(25)).toBe(true);
      // The resolved shifts tile the year: no gap, no overlap.
      const shifts = resolveShifts({ timeZone: zone, layers: [l], overrides: [] }, from, to);
      expect(shifts[0]!.start).toBe(from);
      expect(shifts[shifts.length - 1]!.end).toBe(to);
      for (let i = 1; i < shifts.length; i++) {
        expect(shifts[i]!.start).toBe(shifts[i - 1]!.end);
        if (people.length > 1) expect(shifts[i]!.userId).not.toBe(shifts[i - 1]!.userId);
      }
      // People take turns in order.
      const idx = people.indexOf(turns[1]!.userId);
      expect(turns[2]!.userId).toBe(people[(idx + 1) % people.length]);
    });
  }

  it('a daily 09:00 hand-off in Berlin spans 23 hours over the March change and 25 over October', () => {
    const zone = 'Europe/Berlin';
    const l = layer({ rotationStart: '2026-03-01T09:00' });
    const at = (iso: string) => DateTime.fromISO(iso, { zone }).toMillis();
    const [march] = layerTurns(l, zone, at('2026-03-28T12:00'), at('2026-03-28T13:00'));
    expect(march!.end - march!.start).toBe(HOUR); // cut to the range
    const full = layerTurns(l, zone, at('2026-03-28T09:00'), at('2026-03-29T09:00'));
    expect(full.map((t) => (t.end - t.start) / HOUR)).toEqual([23]);
    const oct = layerTurns(l, zone, at('2026-10-24T09:00'), at('2026-10-25T09:00'));
    expect(oct.map((t) => (t.end - t.start) / HOUR)).toEqual([25]);
  });

  it('a custom hand-off counts elapsed hours, so its local time moves by the DST hour', () => {
    const zone = 'America/New_York';
    const l = layer({ rotationStart: '2026-03-07T09:00', handoff: 'custom', handoffHours: 12 });
    const turns = layerTurns(
      l,
      zone,
      DateTime.fromISO('2026-03-07T09:00', { zone }).toMillis(),
      DateTime.fromISO('2026-03-09T12:00', { zone }).toMillis(),
    );
    expect(turns.map((t) => local(t.start, zone))).toEqual(['09:00', '21:00', '10:00', '22:00', '10:00']);
  });
});

describe('layers, restrictions and overrides', () => {
  const zone = 'Europe/Berlin';
  const at = (iso: string) => DateTime.fromISO(iso, { zone }).toMillis();
  const base = layer({ userIds: ['ann', 'bob'], rotationStart: '2026-06-01T09:00', handoff: 'weekly' });

  it('an override wins over the rotation and the rotation resumes after it', () => {
    const spec: ScheduleSpec = {
      timeZone: zone,
      layers: [base],
      overrides: [{ id: 'o1', userId: 'cy', start: at('2026-06-03T12:00'), end: at('2026-06-04T12:00'), createdAt: 1 }],
    };
    const shifts = resolveShifts(spec, at('2026-06-01T09:00'), at('2026-06-08T09:00'));
    expect(shifts.map((s) => [s.userId, DateTime.fromMillis(s.start, { zone }).toFormat('dd HH:mm'), s.overrideId])).toEqual([
      ['ann', '01 09:00', null],
      ['cy', '03 12:00', 'o1'],
      ['ann', '04 12:00', null],
    ]);
    expect(onCallAt(spec, at('2026-06-03T15:00')).current?.userId).toBe('cy');
    const { current, next } = onCallAt(spec, at('2026-06-02T15:00'));
    expect([current?.userId, current?.end, next?.userId]).toEqual(['ann', at('2026-06-03T12:00'), 'cy']);
  });

  it('a later override wins over an earlier one where they overlap', () => {
    const spec: ScheduleSpec = {
      timeZone: zone,
      layers: [base],
      overrides: [
        { id: 'late', userId: 'dee', start: at('2026-06-02T00:00'), end: at('2026-06-02T06:00'), createdAt: 2 },
        { id: 'early', userId: 'cy', start: at('2026-06-01T12:00'), end: at('2026-06-03T00:00'), createdAt: 1 },
      ],
    };
    expect(onCallAt(spec, at('2026-06-02T03:00')).current?.userId).toBe('dee');
    expect(onCallAt(spec, at('2026-06-02T07:00')).current?.userId).toBe('cy');
  });

  it('restrictions leave gaps, and a later layer wins only where it has someone', () => {
    const office = layer({
      userIds: ['zed'],
      rotationStart: '2026-06-01T00:00',
      handoff: 'weekly',
      restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '18:00' }],
    });
    const alone: ScheduleSpec = { timeZone: zone, layers: [office], overrides: [] };
    // Monday 2026-06-01 to Sunday: five windows, nothing at night or at the weekend.
    const week = resolveShifts(alone, at('2026-06-01T00:00'), at('2026-06-08T00:00'));
    expect(week.map((s) => `${DateTime.fromMillis(s.start, { zone }).toFormat('ccc HH:mm')}-${local(s.end, zone)}`)).toEqual([
      'Mon 09:00-18:00',
      'Tue 09:00-18:00',
      'Wed 09:00-18:00',
      'Thu 09:00-18:00',
      'Fri 09:00-18:00',
    ]);
    expect(onCallAt(alone, at('2026-06-06T12:00')).current).toBeNull();
    expect(onCallAt(alone, at('2026-06-06T12:00')).next?.start).toBe(at('2026-06-08T09:00'));
    const layered: ScheduleSpec = { timeZone: zone, layers: [base, office], overrides: [] };
    expect(onCallAt(layered, at('2026-06-02T10:00')).current?.userId).toBe('zed');
    expect(onCallAt(layered, at('2026-06-02T20:00')).current?.userId).toBe('ann');
  });

  it('restriction windows keep their wall-clock times on the DST day', () => {
    const sunday = layer({
      userIds: ['ann'],
      rotationStart: '2026-03-01T00:00',
      restrictions: [{ days: ['sun'], start: '01:00', end: '05:00' }],
    });
    const shifts = resolveShifts({ timeZone: zone, layers: [sunday], overrides: [] }, at('2026-03-29T00:00'), at('2026-03-30T00:00'));
    expect(shifts.map((s) => [local(s.start, zone), local(s.end, zone), (s.end - s.start) / HOUR])).toEqual([['01:00', '05:00', 3]]);
  });

  it('nobody is on call before a layer’s rotation starts', () => {
    const spec: ScheduleSpec = { timeZone: zone, layers: [base], overrides: [] };
    expect(onCallAt(spec, at('2026-05-31T12:00'))).toMatchObject({ current: null, next: { userId: 'ann', start: at('2026-06-01T09:00') } });
  });
});

describe('resolved shifts agree with asking each instant on its own', () => {
  /** Who is on call at t, the slow way: the last override covering t, else the last layer with someone at t. */
  function naive(spec: ScheduleSpec, t: number): string | null {
    const o = spec.overrides.filter((x) => x.start <= t && t < x.end).sort((a, b) => b.createdAt - a.createdAt)[0];
    if (o) return o.userId;
    for (const l of [...spec.layers].reverse()) {
      const turn = layerTurns(l, spec.timeZone, t, t + 1)[0];
      if (!turn) continue;
      if (l.restrictions.length && restrictionWindows(l.restrictions, spec.timeZone, t, t + 1).length === 0) continue;
      return turn.userId;
    }
    return null;
  }

  for (let seed = 100; seed < 112; seed++) {
    it(`seed ${seed}`, () => {
      const rnd = seeded(seed);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
      const zone = pick(ZONES);
      const from = DateTime.fromISO('2026-03-20T00:00', { zone }).toMillis();
      const to = from + 21 * 24 * HOUR; // across the March changes of Berlin and New York
      const layers = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () =>
        layer({
          userIds: ['ann', 'bob', 'cy', 'dee'].slice(0, 1 + Math.floor(rnd() * 4)),
          rotationStart: `2026-03-${pad(15 + Math.floor(rnd() * 10))}T${pad(pick([0, 7, 9, 13, 20]))}:00`,
          handoff: pick(['daily', 'weekly', 'custom'] as const),
          handoffHours: 1 + Math.floor(rnd() * 30),
          restrictions:
            rnd() < 0.5
              ? []
              : [
                  { days: WEEKDAYS.filter(() => rnd() < 0.6), start: `${pad(pick([0, 8, 9]))}:00`, end: `${pad(pick([12, 18, 23]))}:30` },
                ].filter((r) => r.days.length),
        }),
      );
      const overrides = Array.from({ length: Math.floor(rnd() * 4) }, (_, i) => {
        const start = from + Math.floor(rnd() * 20 * 24) * HOUR;
        return {
          id: `o${i}`,
          userId: pick(['eve', 'fay']),
          start,
          end: start + (1 + Math.floor(rnd() * 48)) * HOUR,
          createdAt: Math.floor(rnd() * 10) * 10 + i,
        };
      });
      const spec: ScheduleSpec = { timeZone: zone, layers, overrides };
      const shifts = resolveShifts(spec, from, to);
      for (let i = 1; i < shifts.length; i++) expect(shifts[i]!.start).toBeGreaterThanOrEqual(shifts[i - 1]!.end);
      for (let k = 0; k < 300; k++) {
        const t = from + Math.floor(rnd() * (to - from));
        const found = shifts.find((s) => s.start <= t && t < s.end)?.userId ?? null;
        expect([t, found]).toEqual([t, naive(spec, t)]);
      }
    });
  }
});
