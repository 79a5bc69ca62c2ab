import { describe, expect, it } from 'vitest';
import { daysUntil, dmarcPasses, hstsOf, spfPasses } from './security-panel.ts';

const spf = { record: 'v=spf1 include:_spf.example.net -all', count: 1, all: '-', lookups: 2, broken: [] as string[] };

describe('the security panel verdicts', () => {
  it('passes SPF only for one sound record', () => {
    expect(spfPasses(spf)).toBe(true);
    expect(spfPasses({ ...spf, record: null, count: 0 })).toBe(false);
    expect(spfPasses({ ...spf, count: 2 })).toBe(false);
    expect(spfPasses({ ...spf, all: '+' })).toBe(false);
    expect(spfPasses({ ...spf, lookups: 11 })).toBe(false);
    expect(spfPasses({ ...spf, broken: ['include:gone.example'] })).toBe(false);
  });

  it('passes DMARC when it acts on failing mail', () => {
    expect(dmarcPasses({ record: 'v=DMARC1; p=reject', policy: 'reject' })).toBe(true);
    expect(dmarcPasses({ record: 'v=DMARC1; p=quarantine', policy: 'quarantine' })).toBe(true);
    expect(dmarcPasses({ record: 'v=DMARC1; p=none', policy: 'none' })).toBe(false);
    expect(dmarcPasses({ record: null, policy: null })).toBe(false);
  });

  it('reads HSTS presence and preload from the header', () => {
    expect(hstsOf('max-age=63072000; includeSubDomains; preload', 63072000)).toEqual({ present: true, maxAge: 63072000, preload: true });
    expect(hstsOf('max-age=300', 300)).toEqual({ present: true, maxAge: 300, preload: false });
    expect(hstsOf(null, 0)).toEqual({ present: false, maxAge: 0, preload: false });
    expect(hstsOf('max-age=300; preloaded', 300).preload).toBe(false);
  });

  it('counts whole days to a date, negative once past', () => {
    const now = Date.UTC(2026, 10, 30, 4);
    expect(daysUntil(now + 10 * 86_400_000 + 5, now)).toBe(10);
    expect(daysUntil(now + 86_399_999, now)).toBe(0);
    expect(daysUntil(now - 1, now)).toBe(-1);
  });
});
