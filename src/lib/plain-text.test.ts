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
    '\u0080',
    '\u0085',
    '\u009f',
    '\u200e',
    '\u200f',
    '\u202a',
    '\u202e',
    '\u2066',
    '\u2069',
  ])('refuses %j', (c) => {
    expect(hasControlCharacters(`before${c}after`)).toBe(true);
  });
  it.each([
    'plain',
    'tab\there',
    'lines\nand\r\nmore',
    'ünïcödé — 数据库',
    'emoji 🌍 pair',
    'no-break\u00a0space',
    'שלום and مرحبا without direction controls',
    'zero\u200bwidth space and \u2060 word joiner (not direction controls)',
  ])('accepts %j', (s) => {
    expect(hasControlCharacters(s)).toBe(false);
  });
  it('names the field, the character and its place (in characters, an emoji is one) in its message', () => {
    expect(plainTextProblem('Name', 'a\u0001')).toBe(
      'Name must not contain control characters: U+0001 (control character) at character 2.',
    );
    expect(plainTextProblem('Title', '🌍🌍\u202eevil')).toBe(
      'Title must not contain control characters: U+202E (right-to-left override, a text direction control) at character 3.',
    );
    expect(plainTextProblem('Name', '\u0085')).toBe(
      'Name must not contain control characters: U+0085 (C1 control character) at character 1.',
    );
    expect(plainTextProblem('Name', 'x\ud800')).toBe(
      'Name must not contain control characters: U+D800 (unpaired surrogate) at character 2.',
    );
    expect(plainTextProblem('Name', null)).toBeNull();
    expect(plainTextProblem('Name', 'fine')).toBeNull();
  });
});
