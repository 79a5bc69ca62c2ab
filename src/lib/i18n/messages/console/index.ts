// The console's catalogue: every string of its screens, in English and German (CONSOLE_LOCALES).
import { defineArea } from '../../area.ts';
import type { ConsoleLocale } from '../../locales.ts';
import de from './de.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };

export type ConsoleKey = keyof typeof en;

export const CONSOLE_AREA = defineArea<ConsoleLocale, ConsoleKey>('console', { en, de });
