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
let currentMessages: Readonly<Record<string, string>> = ENGLISH;

/** true once the language's catalogue is in: the app draws its screens only then. */
export const $localeReady = atom(true);

/** The language the screens are drawn in; the app draws them again when it changes (a new choice in the settings). */
export const $consoleLocale = atom<ConsoleLocale>('en');

/** The message of `key` in the console's language, placeholders filled. */
export function t(key: ConsoleKey, values?: MessageValues): string {
  return current.t(key, values);
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
  const text = currentMessages[key] ?? ENGLISH[key];
  if (text === undefined) return key;
  const locale = currentMessages[key] === undefined ? 'en' : current.locale;
  const out = new IntlMessageFormat(text, locale).format<ReactNode>(values as Record<string, ReactNode>);
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
  return current.locale as ConsoleLocale;
}

/** Switch to `locale`, loading its catalogue first; an unknown language reads as English. */
export async function setConsoleLocale(locale: string): Promise<void> {
  const wanted = (CONSOLE_LOCALES as readonly string[]).includes(locale) ? (locale as ConsoleLocale) : 'en';
  document.documentElement.lang = wanted;
  if (wanted === 'en') {
    current = createTranslator<ConsoleKey>('en', ENGLISH);
    currentMessages = ENGLISH;
    $consoleLocale.set('en');
    $localeReady.set(true);
    return;
  }
  $localeReady.set(false);
  try {
    const { CONSOLE_DE } = await import('../../lib/i18n/messages/console/de.ts');
    currentMessages = flatten(CONSOLE_DE);
    current = createTranslator<ConsoleKey>(wanted, currentMessages, ENGLISH);
    $consoleLocale.set(wanted);
  } finally {
    $localeReady.set(true);
  }
}
