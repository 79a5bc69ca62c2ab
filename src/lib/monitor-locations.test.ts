import { describe, expect, it } from 'vitest';
import { effectiveList, failingText, locationLabel, parseSlugList, quorumProblem, slugListProblem } from './monitor-locations.ts';

describe('monitor locations', () => {
  it('falls back from the monitor to the company default to the built-in engine', () => {
    expect(effectiveList(['eu-west'], ['lab'])).toEqual(['eu-west']);
    expect(effectiveList(null, ['lab'])).toEqual(['lab']);
    expect(effectiveList(null, null)).toEqual(['local']);
    expect(parseSlugList('["a","b"]')).toEqual(['a', 'b']);
    expect(parseSlugList('[]')).toBeNull();
    expect(parseSlugList('not json')).toBeNull();
  });

  it('refuses empty, long, repeated and unknown lists, and quorums out of range', () => {
    const known = new Set(['local', 'eu-west']);
    expect(slugListProblem([], known)).toMatch(/at least one/);
    expect(
      slugListProblem(
        Array.from({ length: 17 }, (_, i) => `x${i}`),
        known,
      ),
    ).toBe('At most 16 locations.');
    expect(slugListProblem(['local', 'local'], known)).toBe('"local" is named twice.');
    expect(slugListProblem(['office'], known)).toBe('"office" is not a location of yours.');
    expect(slugListProblem(['local', 'eu-west'], known)).toBeNull();
    expect(quorumProblem(null, 1)).toBeNull();
    expect(quorumProblem(3, 2)).toBe('The quorum is from 1 to 2 (the number of locations).');
    expect(quorumProblem(0, 3)).not.toBeNull();
    expect(quorumProblem(2, 3)).toBeNull();
  });

  it('names where a multi-location monitor fails, and nothing for one location', () => {
    const at = (slug: string, name: string, status: string, online = true) => ({ slug, name, status, online });
    expect(failingText([at('local', 'Built-in engine', 'down')])).toBeNull();
    expect(failingText([at('local', 'Built-in engine', 'operational'), at('eu', 'Frankfurt', 'down')])).toBe('Down in Frankfurt (1 of 2)');
    expect(failingText([at('local', 'Built-in engine', 'down'), at('eu', 'Frankfurt', 'down'), at('us', 'Virginia', 'degraded')])).toBe(
      'Down in Platform (built-in) and Frankfurt; degraded in Virginia (3 of 3)',
    );
    expect(failingText([at('a', 'A', 'operational'), at('b', 'B', 'unknown')])).toBeNull();
    // an offline location's state is stale: not named
    expect(failingText([at('local', 'Built-in engine', 'operational'), at('eu', 'Frankfurt', 'down', false)])).toBeNull();
    expect(failingText([at('a', 'A', 'down'), at('eu', 'Frankfurt', 'down', false), at('c', 'C', 'operational')])).toBe(
      'Down in A (1 of 3)',
    );
    expect(locationLabel({ slug: 'local', name: 'Built-in engine' })).toBe('Platform (built-in)');
  });
});
