import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain/errors.ts';
import { InflightBudget } from './inflight.ts';

const refusal = (f: () => void): { code: string; retryAfter?: number } | null => {
  try {
    f();
    return null;
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return { code: e.code, retryAfter: e.retryAfter };
  }
};

describe('bytes of bodies in flight', () => {
  it('refuses a company over its share (429) and everyone over the process total (503), until released', () => {
    const budget = new InflightBudget({ companyInflightBytes: 10, processInflightBytes: 15 });
    const a1 = budget.open('a');
    const a2 = budget.open('a');
    const b = budget.open('b');
    a1.take(6);
    expect(refusal(() => a2.take(5))).toEqual({ code: 'rate_limited', retryAfter: 1 });
    a2.take(4);
    b.take(5);
    expect(budget.total).toBe(15);
    expect(refusal(() => b.take(1))).toEqual({ code: 'unavailable', retryAfter: 1 });
    a1.release();
    a1.release(); // a second release gives nothing back twice
    expect(budget.total).toBe(9);
    b.take(5);
    a2.release();
    b.release();
    expect(budget.total).toBe(0);
    expect(refusal(() => budget.open('a').take(10))).toBeNull();
  });
});
