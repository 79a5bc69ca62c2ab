// Every catalogue area: each language has exactly English's keys, each message parses as ICU
// MessageFormat and uses the same placeholders as English (a translation that drops {count} or
// renames it would render wrong), and the pseudo-locale keeps them too.
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_AREAS } from '../../../src/lib/i18n/catalogues.ts';
import { pseudoMessage } from '../../../src/lib/i18n/pseudo.ts';

function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) into.add(el.value);
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      into.add(el.value);
      for (const opt of Object.values(el.options)) argumentsOf(opt.value, into);
    }
    if (el.type === TYPE.tag) {
      into.add(`<${el.value}>`);
      argumentsOf(el.children, into);
    }
  }
  return into;
}

const sorted = (s: Set<string>) => [...s].sort();

describe.each(CATALOGUE_AREAS.map((a) => [a.name, a] as const))('catalogue area %s', (_name, area) => {
  const english = area.messages.en as Record<string, string>;
  const keys = Object.keys(english).sort();

  it('has English messages', () => {
    expect(keys.length).toBeGreaterThan(0);
  });

  it.each(area.locales.map((l) => [l]))('%s has every English key and no other', (locale) => {
    const own = Object.keys(area.messages[locale] as Record<string, string>).sort();
    expect({ missing: keys.filter((k) => !own.includes(k)), extra: own.filter((k) => !keys.includes(k)) }).toEqual({
      missing: [],
      extra: [],
    });
  });

  it.each(area.locales.map((l) => [l]))('%s: every message parses and has English placeholders', (locale) => {
    const own = area.messages[locale] as Record<string, string>;
    const wrong: string[] = [];
    for (const key of keys) {
      if (own[key] === undefined) continue;
      try {
        const want = sorted(argumentsOf(parse(english[key])));
        const got = sorted(argumentsOf(parse(own[key])));
        if (want.join() !== got.join()) wrong.push(`${key}: ${got.join()} (English: ${want.join()})`);
      } catch (err) {
        wrong.push(`${key}: ${(err as Error).message}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the pseudo-locale keeps placeholders and changes every letter', () => {
    for (const key of keys) {
      const pseudo = pseudoMessage(english[key]);
      expect(sorted(argumentsOf(parse(pseudo)))).toEqual(sorted(argumentsOf(parse(english[key]))));
      // Every placeholder gets a value (a number suits arguments, plurals and dates alike).
      // and every tag (<strong>…</strong>) a function, as the console's tr() gives them
      const values = Object.fromEntries(
        [...argumentsOf(parse(english[key]))].map((a) =>
          a.startsWith('<') ? [a.slice(1, -1), (chunks: unknown[]) => chunks.join('')] : [a, 1],
        ),
      );
      expect(area.translator('en-XA').t(key, values).startsWith('[')).toBe(true);
    }
  });
});
