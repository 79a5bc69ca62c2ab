// The company's own texts (an incident's title and update texts, a component's public name, a
// group's name) may be written per language beside the base text, which is in the company's
// default language. A reader gets the translation of their language, else the base text: never
// another language's translation, since a reader who cannot have theirs is best served by the
// text the company wrote first. Pure; imports nothing but the locale list.
import { isPublicLocale } from './locales.ts';

/** Per-language versions of one text: { de: '…', ja: '…' } (keys among PUBLIC_LOCALES). */
export type TextTranslations = Readonly<Partial<Record<string, string>>>;

/** The text of `locale`: its translation when the company wrote one, else the base text. */
export function textIn(locale: string, base: string, translations: TextTranslations | null | undefined): string {
  const own = translations?.[locale];
  return typeof own === 'string' && own.trim() !== '' ? own : base;
}

/** Translations read from storage (a JSON text column): unknown languages and empty texts dropped. */
export function parseTranslations(json: string | null | undefined): Record<string, string> {
  if (!json) return {};
  try {
    const raw: unknown = JSON.parse(json);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
    return Object.fromEntries(
      Object.entries(raw as Record<string, unknown>).filter(
        (e): e is [string, string] => isPublicLocale(e[0]) && typeof e[1] === 'string' && e[1].trim() !== '',
      ),
    );
  } catch {
    return {};
  }
}

/** For storage: null when there are none, so rows without translations stay as they were. */
export function storeTranslations(t: Readonly<Record<string, string>> | null | undefined): string | null {
  const kept = Object.entries(t ?? {}).filter(([, v]) => v.trim() !== '');
  return kept.length ? JSON.stringify(Object.fromEntries(kept.sort(([a], [b]) => a.localeCompare(b)))) : null;
}
