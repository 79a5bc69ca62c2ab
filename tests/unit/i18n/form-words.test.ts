// The kinds' and channels' form fields the console shows come from the console catalogue by the
// field's id (src/islands/console/form-words.ts), while the shared declarations keep the English
// the server names fields by. Every declared field must have its label (and hint, placeholder,
// options) in every console language, and the English catalogue must say what the declaration says,
// so a label changed in src/lib/ cannot silently differ from what the console shows.
import { describe, expect, it } from 'vitest';
import { CHANNEL_FORMS } from '../../../src/lib/channel-forms/index.ts';
import { CONSOLE_LOCALES } from '../../../src/lib/i18n/locales.ts';
import { CONSOLE_AREA } from '../../../src/lib/i18n/messages/console/index.ts';
import { KIND_FIELD_SPECS } from '../../../src/lib/kind-forms/index.ts';

/** [catalogue key, the declaration's English] for every text the forms show. */
function shownTexts(): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, spec] of Object.entries(KIND_FIELD_SPECS)) {
    out.push([`kindForms.${name}.label`, spec.label]);
    if (spec.hint) out.push([`kindForms.${name}.hint`, spec.hint]);
    if (spec.placeholder) out.push([`kindForms.${name}.placeholder`, spec.placeholder]);
    for (const o of spec.options ?? []) out.push([`kindForms.${name}.option.${o}`, o]);
  }
  for (const [type, form] of Object.entries(CHANNEL_FORMS)) {
    out.push([`channelForms.${type}.label`, form.label]);
    for (const f of form.fields) {
      out.push([`channelForms.${type}.${f.key}.label`, f.label]);
      if (f.hint) out.push([`channelForms.${type}.${f.key}.hint`, f.hint]);
      if (f.placeholder) out.push([`channelForms.${type}.${f.key}.placeholder`, f.placeholder]);
    }
  }
  return out;
}

describe('kind and channel form words', () => {
  const texts = shownTexts();

  it('the English catalogue says what each declaration says', () => {
    const en = CONSOLE_AREA.translator('en');
    const differ = texts.filter(([key, english]) => en.t(key as never) !== english).map(([key, english]) => `${key}: ${english}`);
    expect(differ).toEqual([]);
  });

  it.each(CONSOLE_LOCALES.map((l) => [l]))('%s has a text for every shown label, hint, placeholder and option', (locale) => {
    const own = CONSOLE_AREA.messages[locale] as Record<string, string>;
    const missing = texts.filter(([key]) => !own[key]?.trim()).map(([key]) => key);
    expect(missing).toEqual([]);
  });

  it('German keeps the numbers of each hint (limits, ports)', () => {
    const de = CONSOLE_AREA.translator('de');
    const wrong = texts
      .filter(([key]) => key.endsWith('.hint'))
      .filter(([key, english]) => (english.match(/\d+/g) ?? []).some((n) => !de.t(key as never).includes(n)))
      .map(([key]) => key);
    expect(wrong).toEqual([]);
  });

  it('no catalogue key is left from a field no longer declared', () => {
    const wanted = new Set(texts.map(([key]) => key));
    const stale = Object.keys(CONSOLE_AREA.messages.en).filter(
      (key) => (key.startsWith('kindForms.') || key.startsWith('channelForms.')) && !wanted.has(key),
    );
    expect(stale).toEqual([]);
  });
});
