import { describe, expect, it } from 'vitest';
import { requestMemo } from './request-memo.ts';

/** A memo of `fn` that records every key it computes. */
function counted<T>(fn: (k: string) => T, opts: { max: number; maxKeyLength?: number }) {
  const computed: string[] = [];
  const memo = requestMemo((k) => {
    computed.push(k);
    return fn(k);
  }, opts);
  return { memo, computed };
}

describe('requestMemo', () => {
  it('computes a key once and answers it again from memory', () => {
    const { memo, computed } = counted((k) => k.toUpperCase(), { max: 10 });
    expect([memo('a'), memo('b'), memo('a'), memo('a')]).toEqual(['A', 'B', 'A', 'A']);
    expect(computed).toEqual(['a', 'b']);
  });

  it('remembers falsy answers too', () => {
    const { memo, computed } = counted(() => null, { max: 10 });
    memo('a');
    memo('a');
    expect(computed).toEqual(['a']);
  });

  it('keeps at most `max` keys: more distinct keys than that (they come from requests) start it afresh', () => {
    const { memo } = counted((k) => k, { max: 3 });
    for (const k of ['a', 'b', 'c', 'd']) memo(k);
    expect(memo.size()).toBeLessThanOrEqual(3);
    for (let i = 0; i < 1000; i++) memo(`x${i}`);
    expect(memo.size()).toBeLessThanOrEqual(3);
    expect(memo('x999')).toBe('x999');
  });

  it('never keeps a key longer than maxKeyLength, but still answers it', () => {
    const { memo, computed } = counted((k) => k.length, { max: 10, maxKeyLength: 4 });
    expect([memo('abcdef'), memo('abcdef')]).toEqual([6, 6]);
    expect(computed).toEqual(['abcdef', 'abcdef']);
    expect(memo.size()).toBe(0);
  });
});
