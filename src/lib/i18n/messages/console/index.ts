// The console's catalogue: every string of its screens, in English and German (CONSOLE_LOCALES),
// as one flat catalogue of '<namespace>.<key>' (see flatten.ts). The console itself loads German
// lazily (src/islands/console/i18n.ts); this module, with both, is for tests and the server.
import { defineArea } from '../../area.ts';
import type { ConsoleLocale } from '../../locales.ts';
import { CONSOLE_DE } from './de.ts';
import { CONSOLE_EN } from './en.ts';
import { flatten, type FlatKey } from './flatten.ts';

export type ConsoleKey = FlatKey<typeof CONSOLE_EN>;

export const CONSOLE_AREA = defineArea<ConsoleLocale, ConsoleKey>('console', {
  en: flatten(CONSOLE_EN),
  de: flatten(CONSOLE_DE),
});
