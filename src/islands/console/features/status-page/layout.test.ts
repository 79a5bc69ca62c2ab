import { describe, expect, it } from 'vitest';
import {
  addGroup,
  inputOf,
  layoutOf,
  layoutProblem,
  moveGroup,
  moveMonitor,
  moveToSection,
  needsPublicName,
  removeGroup,
  shownNames,
  updateMonitor,
  type Settings,
} from './layout.ts';

const monitor = (id: string, name: string, over: Partial<Settings['monitors'][number]> = {}): Settings['monitors'][number] => ({
  id,
  name,
  type: 'http',
  target: null,
  is_public: true,
  is_paused: false,
  status: 'operational',
  public_name: null,
  shown_name: null,
  group_id: null,
  show_locations: false,
  show_response_chart: false,
  ...over,
});

const settings: Settings = {
  company_id: 'c1',
  access: { mode: 'public', has_password: false, ip_allowlist: [], updated_at: null },
  preview_url: 'http://acme.localhost/',
  groups: [{ id: 'g1', name: 'Core' }],
  monitors: [
    monitor('a', 'Website'),
    monitor('b', '127.0.0.1 200', { target: '127.0.0.1' }),
    monitor('c', 'Database', { group_id: 'g1', public_name: 'DB' }),
    monitor('d', 'Billing', { group_id: 'g1', is_public: false }),
  ],
};

describe('status page layout', () => {
  it('reads the settings into sections and writes them back unchanged', () => {
    const l = layoutOf(settings);
    expect(l.map((s) => [s.key, s.monitors.map((m) => m.id)])).toEqual([
      ['ungrouped', ['a', 'b']],
      ['g1', ['c', 'd']],
    ]);
    expect(inputOf(l)).toEqual({
      ungrouped: [
        { monitor_id: 'a', is_public: true, public_name: null, show_locations: false, show_response_chart: false },
        { monitor_id: 'b', is_public: true, public_name: null, show_locations: false, show_response_chart: false },
      ],
      groups: [
        {
          id: 'g1',
          name: 'Core',
          monitors: [
            { monitor_id: 'c', is_public: true, public_name: 'DB', show_locations: false, show_response_chart: false },
            { monitor_id: 'd', is_public: false, public_name: null, show_locations: false, show_response_chart: false },
          ],
        },
      ],
    });
  });

  it('names public monitors as visitors will read them, "Service N" for host-like names', () => {
    const l = layoutOf(settings);
    expect([...shownNames(l)]).toEqual([
      ['a', 'Website'],
      ['b', 'Service 2'],
      ['c', 'DB'],
    ]);
    expect(needsPublicName(l[0].monitors[1])).toBe(true);
    expect(needsPublicName(updateMonitor(l, 'b', { publicName: 'API' })[0].monitors[1])).toBe(false);
    expect(needsPublicName(updateMonitor(l, 'b', { isPublic: false })[0].monitors[1])).toBe(false);
  });

  it('moves monitors within a section and to another, and groups among groups', () => {
    let l = layoutOf(settings);
    l = moveMonitor(l, 'b', -1);
    expect(l[0].monitors.map((m) => m.id)).toEqual(['b', 'a']);
    expect(moveMonitor(l, 'b', -1)).toEqual(l); // already first
    l = moveToSection(l, 'a', 'g1');
    expect(l.map((s) => s.monitors.map((m) => m.id))).toEqual([['b'], ['c', 'd', 'a']]);
    l = addGroup(l, '  Edge ', 'new-1');
    expect(l[2]).toEqual({ key: 'new-1', name: 'Edge', monitors: [] });
    l = moveGroup(l, 'new-1', -1);
    expect(l.map((s) => s.key)).toEqual(['ungrouped', 'new-1', 'g1']);
    expect(moveGroup(l, 'new-1', -1)).toEqual(l); // the ungrouped section stays first
    expect(inputOf(l).groups[0]).toEqual({ name: 'Edge', monitors: [] });
    l = removeGroup(l, 'g1');
    expect(l.map((s) => [s.key, s.monitors.map((m) => m.id)])).toEqual([
      ['ungrouped', ['b', 'c', 'd', 'a']],
      ['new-1', []],
    ]);
  });

  it('finds empty and duplicate group names before saving', () => {
    const l = layoutOf(settings);
    expect(layoutProblem(l)).toBeNull();
    expect(layoutProblem(addGroup(l, ' ', 'n'))).toBe('Every group needs a name.');
    expect(layoutProblem(addGroup(l, 'core', 'n'))).toBe('Two groups are named "core".');
  });
});
