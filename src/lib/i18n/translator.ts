// A catalogue is a flat JSON object of ICU MessageFormat strings ('{count, plural, one {# check}
// other {# checks}}'), one file per area and language: src/i18n/<area>/<locale>.json. A translator
// formats a key of one catalogue with intl-messageformat (FormatJS), parsing each message once.
// A key the language lacks falls back to English, so a page never shows a raw key; the catalogue
// test (tests/unit/i18n/catalogues.test.ts) fails on any such gap before it ships.
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';

export type Messages = Readonly<Record<string, string>>;
export type MessageValues = Record<string, PrimitiveType>;

export interface Translator<K extends string = string> {
  readonly locale: string;
  /** The message of `key` with its placeholders filled. */
  t(key: K, values?: MessageValues): string;
}

/**
 * `messages` of `locale`, with `fallback` (English) for keys it lacks. Dates and numbers inside
 * messages ({at, date, medium}) are formatted for `locale` by Intl.
 */
export function createTranslator<K extends string>(locale: string, messages: Messages, fallback: Messages = messages): Translator<K> {
  const formats = new Map<string, IntlMessageFormat>();
  const formatOf = (key: string): IntlMessageFormat | null => {
    let f = formats.get(key);
    if (f) return f;
    const own = messages[key];
    const text = own ?? fallback[key];
    if (text === undefined) return null;
    f = new IntlMessageFormat(text, own === undefined ? 'en' : locale);
    formats.set(key, f);
    return f;
  };
  return {
    locale,
    t(key, values) {
      const f = formatOf(key);
      if (!f) return key;
      const out = f.format(values);
      return typeof out === 'string' ? out : String(out);
    },
  };
}
