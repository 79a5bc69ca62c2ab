// The list query subset Okta and Entra ID send: one equality filter on the matching attribute,
// 1-based paging; anything else is refused with invalidFilter naming what is supported.
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { equalityFilter, excludes, pageOf } from './query.ts';

function refusal(filter: string): { detail: string; scimType?: string } {
  try {
    equalityFilter(filter, 'userName');
  } catch (e) {
    return { detail: (e as DomainError).detail, scimType: (e as DomainError).fields?.scimType };
  }
  throw new Error(`accepted ${filter}`);
}

describe('SCIM list queries', () => {
  it.each([
    ['userName eq "jane@acme.example"', 'jane@acme.example'],
    ['username EQ "Jane@Acme.example"', 'Jane@Acme.example'],
    ['userName eq "o\'brien@acme.example"', "o'brien@acme.example"],
  ])('reads %s', (filter, value) => {
    expect(equalityFilter(filter, 'userName')).toBe(value);
  });

  it('reads no filter as none', () => {
    expect(equalityFilter(undefined, 'userName')).toBeUndefined();
    expect(equalityFilter('  ', 'userName')).toBeUndefined();
  });

  it.each([
    'displayName eq "Ops"',
    'userName co "jane"',
    'userName eq "a" or userName eq "b"',
    'userName pr',
    'userName eq 3',
    'userName eq',
  ])('refuses %s with invalidFilter', (filter) => {
    const r = refusal(filter);
    expect(r.scimType).toBe('invalidFilter');
    expect(r.detail).toContain('Only the filter userName eq "…" is supported.');
  });

  it('pages from 1 with at most 200 a page', () => {
    expect(pageOf({})).toEqual({ startIndex: 1, offset: 0, limit: 100 });
    expect(pageOf({ startIndex: 101, count: 50 })).toEqual({ startIndex: 101, offset: 100, limit: 50 });
    expect(pageOf({ startIndex: 1, count: 5000 })).toEqual({ startIndex: 1, offset: 0, limit: 200 });
    expect(pageOf({ count: 0 }).limit).toBe(0);
  });

  it('leaves members out only when asked', () => {
    expect(excludes({ excludedAttributes: 'members' }, 'members')).toBe(true);
    expect(excludes({ excludedAttributes: 'externalId, Members' }, 'members')).toBe(true);
    expect(excludes({}, 'members')).toBe(false);
  });
});
