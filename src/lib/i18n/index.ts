// Languages (issue 32). How text reaches a reader in their language:
// - Catalogues: flat JSON files of ICU MessageFormat strings, messages/<area>/<locale>.json (area
//   'public': status page, history, incident pages, subscribe flow, subscriber messages, in the
//   twelve PUBLIC_LOCALES; area 'console': English and German). Keys are dotted, named for where
//   the text shows ('page.allOperational'); English is the source; every language has every key
//   with the same placeholders (tests/unit/i18n/catalogues.test.ts fails otherwise).
// - A page or island imports its area (messages/public/index.ts -> PUBLIC_AREA) and asks for a
//   translator: PUBLIC_AREA.translator('de').t('page.allOperational', { count }).
// - negotiateLocale picks the language: the URL's explicit choice, else Accept-Language, else the
//   page's default. directionOf gives 'rtl' for Arabic and Hebrew.
// - en-XA (PSEUDO_LOCALE) renders every message accented and bracketed: a test renders a page in
//   it and fails on plain English left over (text that bypassed the catalogue).
// - A new area (say embeds) is a folder under messages/ with an index.ts like public's, registered
//   in catalogues.ts.
export { defineArea, type CatalogueArea } from './area.ts';
export {
  CONSOLE_LOCALES,
  type ConsoleLocale,
  directionOf,
  isConsoleLocale,
  isPublicLocale,
  LOCALE_NAMES,
  PSEUDO_LOCALE,
  PUBLIC_LOCALES,
  type PublicLocale,
  SOURCE_LOCALE,
} from './locales.ts';
export { acceptedLanguages, negotiateLocale } from './negotiate.ts';
export { pseudoMessage } from './pseudo.ts';
export { createTranslator, type MessageValues, type Messages, type Translator } from './translator.ts';
