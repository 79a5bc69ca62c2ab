import { describe, expect, it } from 'vitest';
import { emptyLayer, localErrors, messageAt, moved, payload, restrictionText, unplaced } from './editor.ts';

describe('schedule editor model', () => {
  it('starts a new layer at 09:00 today in the schedule zone, weekly', () => {
    // 23:30 UTC on the 29th is already the 30th in Berlin
    const l = emptyLayer('Europe/Berlin', Date.parse('2026-11-29T23:30:00Z'));
    expect(l).toMatchObject({ rotation_start: '2026-11-30T09:00', handoff: 'weekly', user_ids: [], restrictions: [] });
    // a zone still being typed: today in UTC
    expect(emptyLayer('Europe/Ber', Date.parse('2026-11-29T23:30:00Z')).rotation_start).toBe('2026-11-29T09:00');
  });

  it('sends trimmed names and the hours only with a custom hand-off', () => {
    const sent = payload({
      name: '  Primary ',
      time_zone: ' UTC ',
      layers: [
        { name: ' ', user_ids: ['a'], rotation_start: '2026-11-30T09:00', handoff: 'weekly', handoff_hours: 12, restrictions: [] },
        { name: 'Nights', user_ids: ['b'], rotation_start: '2026-11-30T21:00', handoff: 'custom', handoff_hours: 12 },
      ],
    });
    expect(sent).toEqual({
      name: 'Primary',
      time_zone: 'UTC',
      layers: [
        { user_ids: ['a'], rotation_start: '2026-11-30T09:00', handoff: 'weekly', handoff_hours: null, restrictions: [] },
        { name: 'Nights', user_ids: ['b'], rotation_start: '2026-11-30T21:00', handoff: 'custom', handoff_hours: 12, restrictions: [] },
      ],
    });
  });

  it('moves an item one place, and not past either end', () => {
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('shows a server message at its field or the field above it, and the rest in the banner', () => {
    const errors = { 'layers.0.user_ids.1': 'Not a member of this company', time_zone: 'Not a time zone', other: 'Something else' };
    expect(messageAt(errors, 'layers.0.user_ids')).toBe('Not a member of this company');
    expect(messageAt(errors, 'time_zone')).toBe('Not a time zone');
    expect(messageAt(errors, 'layers.1.user_ids')).toBeUndefined();
    expect(unplaced(errors, ['time_zone', 'layers.0.user_ids'])).toEqual(['Something else']);
  });

  it('words a restriction', () => {
    expect(restrictionText({ days: ['fri', 'mon'], start: '09:00', end: '18:00' })).toBe('Mon, Fri 09:00–18:00');
  });

  it('tells before sending a layer without people and a custom hand-off without whole hours', () => {
    const layer = { user_ids: ['a'], rotation_start: '2026-11-30T09:00', handoff: 'weekly' as const, handoff_hours: null };
    expect(localErrors({ name: 'P', time_zone: 'UTC', layers: [layer] })).toEqual({});
    expect(
      localErrors({
        name: 'P',
        time_zone: 'UTC',
        layers: [
          { ...layer, user_ids: [] },
          { ...layer, handoff: 'custom', handoff_hours: 1.5 },
        ],
      }),
    ).toEqual({
      'layers.0.user_ids': 'Add at least one person to this layer',
      'layers.1.handoff_hours': 'A whole number of hours from 1 to 2016',
    });
  });
});
