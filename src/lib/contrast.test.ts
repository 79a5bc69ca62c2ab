import { describe, expect, it } from 'vitest';
import { contrastWithWhite, readableOnWhite } from './contrast.ts';

describe('readable brand colours', () => {
  it('keeps a colour that is already readable', () => {
    expect(readableOnWhite('#aa3300')).toBe('#aa3300');
    expect(readableOnWhite('#000000')).toBe('#000000');
  });
  it('darkens the default #007bff until white text on it reaches 4.5:1', () => {
    const c = readableOnWhite('#007bff');
    expect(c).not.toBe('#007bff');
    expect(contrastWithWhite(c)).toBeGreaterThanOrEqual(4.5);
    expect(contrastWithWhite('#007bff')).toBeLessThan(4.5);
  });
  it('handles white itself', () => expect(contrastWithWhite(readableOnWhite('#ffffff'))).toBeGreaterThanOrEqual(4.5));
});
