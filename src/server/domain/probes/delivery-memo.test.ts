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
    expect(memo?.monitors.get('a')).toEqual({ rev: 7, assigned: row('a') });
    expect(memo?.monitors.get('b')).toEqual({ rev: 9, assigned: null });
    // a monitor asked for and not found (deleted, another company's) is read again next time
    expect(memos.covering('h', ['a', 'gone'])).toBeUndefined();
    expect(memos.covering('other', ['a'])).toBeUndefined();
  });

  it('judges a public slug shadowed for a company as not assigned, and starts over when the token names another location', () => {
    const memos = new DeliveryMemos();
    memos.remember('h', euWest, ['zeta', 'acme'], ['a'], [row('a')]);
    expect(memos.covering('h', ['a'])?.shadowed).toEqual(['acme', 'zeta']);
    expect(memos.covering('h', ['a'])?.monitors.get('a')?.assigned).toBeNull();
    memos.remember('h', { ...euWest, num: 2, slug: 'us-east' }, [], ['c'], [row('c', { locations: '["us-east"]' })]);
    expect(memos.covering('h', ['a'])).toBeUndefined();
    expect(memos.covering('h', ['c'])?.monitors.get('c')?.assigned?.id).toBe('c');
    memos.forget('h');
    expect(memos.covering('h', ['c'])).toBeUndefined();
  });

  it('sorts company ids by code unit, as PostgreSQL\'s "C" collation orders them', () => {
    expect(sortedIds(['b', 'B', 'a-1', 'a_1', 'a1'])).toEqual(['B', 'a-1', 'a1', 'a_1', 'b']);
  });
});
