// The console's words: every string a screen shows comes from t('<namespace>.<key>', values),
// the console catalogue (src/lib/i18n/messages/console/) in the reader's language. The catalogue
// and its formatter (intl-messageformat) are fetched before the first screen draws, never in the
// initial script (the console's 120 KB budget, tests/api/console-budget.test.ts): English always,
// German only for those who read it. The language comes with the page (boot.locale: the user's
// choice, else their browser's).
import type { IntlMessageFormat } from 'intl-messageformat';
import { atom } from 'nanostores';
import { createElement, Fragment, type ReactNode } from 'react';
import { CONSOLE_LOCALES, type ConsoleLocale } from '../../lib/i18n/locales.ts';
import type { ConsoleKey } from '../../lib/i18n/messages/console/index.ts';
import type { MessageValues, Translator } from '../../lib/i18n/translator.ts';

export type { ConsoleKey };

/** What is fetched once before the first screen: English, the translator and the formatter. */
interface Loaded {
  english: Readonly<Record<string, string>>;
  createTranslator: typeof import('../../lib/i18n/translator.ts').createTranslator;
  Formatter: typeof IntlMessageFormat;
  flatten: typeof import('../../lib/i18n/messages/console/flatten.ts').flatten;
}
let loaded: Loaded | null = null;
let loading: Promise<Loaded> | null = null;
let current: Translator<ConsoleKey> | null = null;
let currentMessages: Readonly<Record<string, string>> = {};

function load(): Promise<Loaded> {
  loading ??= Promise.all([
    import('../../lib/i18n/messages/console/en.ts'),
    import('../../lib/i18n/messages/console/flatten.ts'),
    import('../../lib/i18n/translator.ts'),
    import('intl-messageformat'),
  ]).then(([en, f, tr, imf]) => {
    loaded = {
      english: f.flatten(en.CONSOLE_EN),
      createTranslator: tr.createTranslator,
      Formatter: imf.IntlMessageFormat,
      flatten: f.flatten,
    };
    return loaded;
  });
  return loading;
}

/** true once the language's catalogue is in: the app draws its screens only then. */
export const $localeReady = atom(false);

/** The language the screens are drawn in; the app draws them again when it changes (a new choice in the settings). */
export const $consoleLocale = atom<ConsoleLocale>('en');

/** The message of `key` in the console's language, placeholders filled. */
export function t(key: ConsoleKey, values?: MessageValues): string {
  return current ? current.t(key, values) : key;
}

/** A value of a rich message: text, a number, an element, or a tag's wrapper (`link: (chunks) => <a>{chunks}</a>`). */
export type RichValue = string | number | boolean | null | undefined | Date | ReactNode | ((chunks: ReactNode[]) => ReactNode);

/** The values of a rich message (tr()), by placeholder and tag name */
export type RichValues = Record<string, RichValue>;

/**
 * The message of `key` as React nodes, for a sentence with markup inside: its tags
 * (`Read <link>the guide</link>.`) become what `values` maps them to, and a value may be an element
 * (`Available: {address}` with address: <strong>…</strong>), so the sentence stays one message.
 */
export function tr(key: ConsoleKey, values: RichValues): ReactNode {
  if (!loaded || !current) return key;
  const text = currentMessages[key] ?? loaded.english[key];
  if (text === undefined) return key;
  const locale = currentMessages[key] === undefined ? 'en' : current.locale;
  const out = new loaded.Formatter(text, locale).format<ReactNode>(values as Record<string, ReactNode>);
  return Array.isArray(out)
    ? createElement(
        Fragment,
        null,
        ...out.map((part, i) => (typeof part === 'object' && part !== null ? createElement(Fragment, { key: i }, part) : part)),
      )
    : out;
}

/** The console's language now ('en' or 'de'); Intl formatting of numbers follows it. */
export function consoleLocale(): ConsoleLocale {
  return (current?.locale ?? 'en') as ConsoleLocale;
}

/** Loads the words of `locale` (English for one the console does not have) and draws with them from now on. */
export async function loadConsoleWords(locale: string): Promise<ConsoleLocale> {
  const wanted = (CONSOLE_LOCALES as readonly string[]).includes(locale) ? (locale as ConsoleLocale) : 'en';
  const l = await load();
  if (wanted === 'en') {
    currentMessages = l.english;
    current = l.createTranslator<ConsoleKey>('en', l.english);
  } else {
    const { CONSOLE_DE } = await import('../../lib/i18n/messages/console/de.ts');
    currentMessages = l.flatten(CONSOLE_DE);
    current = l.createTranslator<ConsoleKey>(wanted, currentMessages, l.english);
  }
  return wanted;
}

/** Switch to `locale`, loading its catalogue first; an unknown language reads as English. */
export async function setConsoleLocale(locale: string): Promise<void> {
  $localeReady.set(false);
  try {
    const wanted = await loadConsoleWords(locale);
    document.documentElement.lang = wanted;
    $consoleLocale.set(wanted);
  } finally {
    $localeReady.set(true);
  }
}
