// The console's words: every string a screen shows comes from t('<namespace>.<key>', values),
// the console catalogue (src/lib/i18n/messages/console/) in the reader's language. English is in
// the bundle; German is fetched once, before the first screen draws, only for those who read it.
// The language comes with the page (boot.locale: the user's choice, else their browser's).
import { IntlMessageFormat } from 'intl-messageformat';
import { atom } from 'nanostores';
import { createElement, Fragment, type ReactNode } from 'react';
import { CONSOLE_LOCALES, type ConsoleLocale } from '../../lib/i18n/locales.ts';
import type { ConsoleKey } from '../../lib/i18n/messages/console/index.ts';
import { CONSOLE_EN } from '../../lib/i18n/messages/console/en.ts';
import { flatten } from '../../lib/i18n/messages/console/flatten.ts';
import { createTranslator, type MessageValues, type Translator } from '../../lib/i18n/translator.ts';

export type { ConsoleKey };

const ENGLISH = flatten(CONSOLE_EN);
let current: Translator<ConsoleKey> = createTranslator<ConsoleKey>('en', ENGLISH);
/** the catalogue of the language shown (tr() formats its messages to React elements) */
let shown: Record<string, string> = ENGLISH;

/** true once the language's catalogue is in: the app draws its screens only then. */
export const $localeReady = atom(true);

/** The message of `key` in the console's language, placeholders filled. */
export function t(key: ConsoleKey, values?: MessageValues): string {
  return current.t(key, values);
}

/** Placeholders of a rich message: values, and a function per tag (`<link>…</link>`) making its element. */
export type RichValues = Record<string, string | number | boolean | Date | null | undefined | ((chunks: ReactNode[]) => ReactNode)>;

/**
 * The message of `key` as React nodes: a sentence with a link or code inside stays ONE message,
 * its tags mapped to elements by `values` (t('x', { link: (chunks) => <a href=…>{chunks}</a> })).
 */
export function tr(key: ConsoleKey, values: RichValues): ReactNode {
  const own = shown[key];
  const text = own ?? ENGLISH[key];
  if (text === undefined) return key;
  const parts = new IntlMessageFormat(text, own === undefined ? 'en' : current.locale).formatToParts<ReactNode>(values as never);
  // children as arguments, not an array: React then asks for no keys
  return createElement(Fragment, null, ...parts.map((p) => p.value as ReactNode));
}

/** The console's language now ('en' or 'de'); Intl formatting of numbers follows it. */
export function consoleLocale(): ConsoleLocale {
  return current.locale as ConsoleLocale;
}

/** Switch to `locale`, loading its catalogue first; an unknown language reads as English. */
export async function setConsoleLocale(locale: string): Promise<void> {
  const wanted = (CONSOLE_LOCALES as readonly string[]).includes(locale) ? (locale as ConsoleLocale) : 'en';
  document.documentElement.lang = wanted;
  if (wanted === 'en') {
    current = createTranslator<ConsoleKey>('en', ENGLISH);
    shown = ENGLISH;
    $localeReady.set(true);
    return;
  }
  $localeReady.set(false);
  try {
    const { CONSOLE_DE } = await import('../../lib/i18n/messages/console/de.ts');
    shown = flatten(CONSOLE_DE);
    current = createTranslator<ConsoleKey>(wanted, shown, ENGLISH);
  } finally {
    $localeReady.set(true);
  }
}
