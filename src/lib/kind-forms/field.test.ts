import { describe, expect, it } from 'vitest';
import { initialValue, toApiValue, toFormValue, type KindField } from './field.ts';

const f = (input: KindField['input'], extra: Partial<KindField> = {}): KindField => ({ label: 'x', input, ...extra });

describe('declared kind fields', () => {
  it('turns what was typed into the API value of each input', () => {
    expect(toApiValue(f('text'), '  a  ')).toBe('a');
    expect(toApiValue(f('text'), '   ')).toBeNull();
    expect(toApiValue(f('number'), '42')).toBe(42);
    expect(toApiValue(f('number'), 'lots')).toBe('lots'); // the server names the field
    expect(toApiValue(f('list'), 'a, b\nc,')).toEqual(['a', 'b', 'c']);
    expect(toApiValue(f('numbers'), '30, 14, 7')).toEqual([30, 14, 7]);
    expect(toApiValue(f('pairs'), 'X-A: 1:2\n\nB: c')).toEqual({ 'X-A': '1:2', B: 'c' });
    expect(toApiValue(f('lines'), 'line one\n  two')).toBe('line one\n  two');
    expect(toApiValue(f('checkbox'), true)).toBe(true);
    expect(toApiValue(f('select', { options: ['a', 'b'] }), 'b')).toBe('b');
  });

  it('leaves a blank secret out of the body so an edit keeps the stored one', () => {
    expect(toApiValue(f('secret'), '')).toBeUndefined();
    expect(toApiValue(f('secret'), 'hunter2')).toBe('hunter2');
  });

  it('shows a stored value in the form, a secret never, and the default when unset', () => {
    expect(toFormValue(f('list'), ['a', 'b'])).toBe('a, b');
    expect(toFormValue(f('pairs'), { A: '1' })).toBe('A: 1');
    expect(toFormValue(f('number'), 5)).toBe('5');
    expect(toFormValue(f('secret'), 'stored')).toBe('');
    expect(toFormValue(f('select', { default: 'starttls' }), null)).toBe('starttls');
    expect(toFormValue(f('checkbox', { default: true }), undefined)).toBe(true);
    expect(initialValue(f('checkbox'))).toBe(false);
    expect(initialValue(f('text', { default: '3' }))).toBe('3');
  });
});
