// The delivery memo (delivery-memo.ts): what it covers, the verdicts it keeps, and what it forgets.
import { describe, expect, it } from 'vitest';
import type { AssignmentCandidate } from '../../db/repositories/probe-assignments-repo.ts';
import { DeliveryMemos, sortedIds } from './delivery-memo.ts';

const row = (id: string, over: Partial<AssignmentCandidate> = {}): AssignmentCandidate => ({
  id,
  company_id: 'acme',
  type: 'http',
  is_paused: false,
  archived_at: null,
  locations: '["eu-west"]',
  default_locations: null,
  company_active: true,
  assignment_rev: 7,
  ...over,
});
const euWest = { num: 1, slug: 'eu-west', company_id: null, company_subdomain: null };

describe('delivery memos', () => {
  it('covers a batch only when every monitor it names was read, and keeps each verdict with its rev', () => {
    const memos = new DeliveryMemos();
    memos.remember('h', euWest, [], ['a', 'b', 'gone'], [row('a'), row('b', { is_paused: true, assignment_rev: 9 })]);
    const memo = memos.covering('h', ['a', 'b']);
    expect(memo?.assigned('a')).toEqual({ id: 'a', company_id: 'acme', type: 'http' });
    expect(memo?.revOf('a')).toBe(7);
    expect(memo?.assigned('b')).toBeNull();
    expect(memo?.revOf('b')).toBe(9);
    expect(memo?.assigned('gone')).toBeUndefined();
    // a monitor asked for and not found (deleted, another company's) is read again next time
    expect(memos.covering('h', ['a', 'gone'])).toBeUndefined();
    expect(memos.covering('other', ['a'])).toBeUndefined();
  });

  it('judges a public slug shadowed for a company as not assigned, and starts over when the token names another location', () => {
    const memos = new DeliveryMemos();
    memos.remember('h', euWest, ['zeta', 'acme'], ['a'], [row('a')]);
    expect(memos.covering('h', ['a'])?.shadowed).toEqual(['acme', 'zeta']);
    expect(memos.covering('h', ['a'])?.assigned('a')).toBeNull();
    memos.remember('h', { ...euWest, num: 2, slug: 'us-east' }, [], ['c'], [row('c', { locations: '["us-east"]' })]);
    expect(memos.covering('h', ['a'])).toBeUndefined();
    expect(memos.covering('h', ['c'])?.assigned('c')).toEqual({ id: 'c', company_id: 'acme', type: 'http' });
    memos.forget('h');
    expect(memos.covering('h', ['c'])).toBeUndefined();
  });

  it('forgets the least recently used token past 250,000 monitors in all, and a token whose rev it cannot hold', () => {
    const memos = new DeliveryMemos();
    const many = (prefix: string) => Array.from({ length: 150_000 }, (_, i) => row(`${prefix}${i}`));
    const first = many('a');
    memos.remember('h1', euWest, [], [], first);
    expect(memos.covering('h1', ['a0', 'a149999'])).toBeDefined();
    const second = many('b');
    memos.remember('h2', { ...euWest, num: 2 }, [], [], second);
    expect(memos.covering('h1', ['a0'])).toBeUndefined();
    expect(memos.covering('h2', ['b0', 'b149999'])?.revOf('b7')).toBe(7);
    expect(memos.size).toBe(150_000);
    memos.remember('h3', euWest, [], ['x'], [row('x', { assignment_rev: 2 ** 36 })]);
    expect(memos.covering('h3', ['x'])).toBeUndefined();
  });

  it('sorts company ids by code unit, as PostgreSQL\'s "C" collation orders them', () => {
    expect(sortedIds(['b', 'B', 'a-1', 'a_1', 'a1'])).toEqual(['B', 'a-1', 'a1', 'a_1', 'b']);
  });
});
