// The languages the public side (status page, history, incident pages, subscribe flow, subscriber
// messages, embeds) is written in, and the two the console has. Each with its own name (what a
// language switch shows) and its writing direction (Arabic and Hebrew pages are laid out right to
// left). Pure; imports nothing.

export const PUBLIC_LOCALES = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl', 'pl', 'ja', 'zh-CN', 'ar', 'he'] as const;
export type PublicLocale = (typeof PUBLIC_LOCALES)[number];

export const CONSOLE_LOCALES = ['en', 'de'] as const;
export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number];

/** The language everything falls back to, and the one every catalogue is checked against. */
export const SOURCE_LOCALE = 'en';

/**
 * A made-up locale for tests only: every catalogue message of English, accented and bracketed
 * ('[Šţåţûš ƥåĝé]'), so a rendered page that still shows plain English has text that did not go
 * through a catalogue.
 */
export const PSEUDO_LOCALE = 'en-XA';

/** Each language's name in that language, as a switch lists it. */
export const LOCALE_NAMES: Record<PublicLocale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  pt: 'Português',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  ja: '日本語',
  'zh-CN': '简体中文',
  ar: 'العربية',
  he: 'עברית',
};

const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(['ar', 'he']);

/** 'rtl' for Arabic and Hebrew, else 'ltr': the `dir` of the page's <html>. */
export function directionOf(locale: string): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(locale) ? 'rtl' : 'ltr';
}

export function isPublicLocale(value: unknown): value is PublicLocale {
  return typeof value === 'string' && (PUBLIC_LOCALES as readonly string[]).includes(value);
}

export function isConsoleLocale(value: unknown): value is ConsoleLocale {
  return typeof value === 'string' && (CONSOLE_LOCALES as readonly string[]).includes(value);
}
