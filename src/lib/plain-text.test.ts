import { describe, expect, it } from 'vitest';
import { hasControlCharacters, plainTextProblem } from './plain-text.ts';

describe('plain text', () => {
  it.each([
    '\u0000',
    '\u0001',
    '\u0008',
    '\u000b',
    '\u000c',
    '\u000e',
    '\u001f',
    '\u007f',
    '\ufffe',
    '\uffff',
    '\ud800',
    'a\udc00',
    '\udbff\u0041',
  ])('refuses %j', (c) => {
    expect(hasControlCharacters(`before${c}after`)).toBe(true);
  });
  it.each([
    'plain',
    'tab\there',
    'lines\nand\r\nmore',
    'ünïcödé — 数据库',
    'emoji 🌍 pair',
    '\u0085 and \u00a0 (C1 and no-break space are valid XML)',
  ])('accepts %j', (s) => {
    expect(hasControlCharacters(s)).toBe(false);
  });
  it('names the field in its message', () => {
    expect(plainTextProblem('Name', 'a\u0001')).toBe('Name must not contain control characters.');
    expect(plainTextProblem('Name', null)).toBeNull();
    expect(plainTextProblem('Name', 'fine')).toBeNull();
  });
});
