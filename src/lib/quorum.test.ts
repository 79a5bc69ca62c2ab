import { describe, expect, it } from 'vitest';
import { effectiveSlugs, namesText, quorumNeed, quorumVerdict, whereText, type LocationVote } from './quorum.ts';

const vote = (name: string, status: LocationVote['status'], online = true, num = name.length): LocationVote => ({
  num,
  slug: name.toLowerCase(),
  name,
  status,
  online,
});

describe('effective locations', () => {
  it.each([
    [null, null, ['local']],
    ['["eu-west","us-east"]', null, ['eu-west', 'us-east']],
    [null, '["eu-west"]', ['eu-west']],
    ['["lab"]', '["eu-west"]', ['lab']],
    ['[]', '["eu-west"]', ['eu-west']],
    ['not json', null, ['local']],
    ['[1,2]', null, ['local']],
  ])('monitor %s, company %s → %j', (own, company, want) => {
    expect(effectiveSlugs(own, company)).toEqual(want);
  });
});

describe('quorum need', () => {
  it.each([
    [null, 1, 1],
    [null, 2, 2],
    [null, 3, 2],
    [null, 4, 3],
    [null, 5, 3],
    [2, 3, 2],
    [3, 2, 2], // capped at the voting locations: two online of three still can go down
    [1, 3, 1],
    [null, 0, 1],
  ])('quorum %s over %i voting → %i', (q, voting, need) => {
    expect(quorumNeed(q, voting)).toBe(need);
  });
});

describe('verdict', () => {
  it('one location of three down is degraded, never down', () => {
    const v = quorumVerdict([vote('Frankfurt', 'down'), vote('Virginia', 'operational'), vote('Singapore', 'operational')], null);
    expect(v.status).toBe('degraded');
  });
  it('two of three down is down, and the alert names them', () => {
    const v = quorumVerdict([vote('Frankfurt', 'down'), vote('Virginia', 'down'), vote('Singapore', 'operational')], null);
    expect(v.status).toBe('down');
    expect(whereText(v)).toBe('from Frankfurt and Virginia, 2 of 3 locations; Singapore sees it up');
  });
  it('an offline location counts neither way', () => {
    const v = quorumVerdict([vote('Frankfurt', 'down'), vote('Virginia', 'down', false), vote('Singapore', 'operational')], null);
    // one online down of two voting: a majority of two is two
    expect(v.status).toBe('degraded');
    expect(v.absent.map((a) => a.name)).toEqual(['Virginia']);
    const solo = quorumVerdict([vote('Frankfurt', 'down'), vote('Virginia', 'operational', false)], null);
    expect(solo.status).toBe('down');
    expect(whereText(solo)).toBe('from Frankfurt, 1 of 2 locations; no result from Virginia');
  });
  it('a location without a result yet does not vote', () => {
    expect(quorumVerdict([vote('Frankfurt', 'unknown'), vote('Virginia', 'operational')], null).status).toBe('operational');
    expect(quorumVerdict([vote('Frankfurt', 'unknown')], null).status).toBe('unknown');
  });
  it('a set quorum of 1 goes down with any location', () => {
    expect(quorumVerdict([vote('Frankfurt', 'down'), vote('Virginia', 'operational'), vote('Tokyo', 'operational')], 1).status).toBe(
      'down',
    );
  });
  it('degraded somewhere and up elsewhere is degraded', () => {
    expect(quorumVerdict([vote('Frankfurt', 'degraded'), vote('Virginia', 'operational')], null).status).toBe('degraded');
  });
  it('names lists', () => {
    expect(namesText(['A'])).toBe('A');
    expect(namesText(['A', 'B', 'C'])).toBe('A, B and C');
  });
});
