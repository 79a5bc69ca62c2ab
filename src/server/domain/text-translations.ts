// The company's own texts written per language (issue 32): what the API accepts beside an
// incident's title, an update's message, a component's public name or a group's name. Keys are
// PUBLIC_LOCALES codes; each text follows the base field's rules (trimmed, its length, no control
// or direction-override characters); an empty text drops that language. Problems name the field
// and language ('message_translations.de') so a form can mark the right box.
import { isPublicLocale, PUBLIC_LOCALES } from '../../lib/i18n/index.ts';
import { parseTranslations, storeTranslations } from '../../lib/i18n/company-text.ts';
import { plainTextProblem } from '../../lib/plain-text.ts';
import { DomainError } from './errors.ts';

export type Translations = Record<string, string>;

/**
 * The translations to store (JSON text, or null for none); `undefined` in, `undefined` out (an
 * edit that leaves them alone). Throws a validation problem per offending language.
 */
export function cleanTranslations(
  field: string,
  label: string,
  input: Readonly<Record<string, string>> | null | undefined,
  maxLength: number,
): string | null | undefined {
  if (input === undefined) return undefined;
  if (input === null) return null;
  const fields: Record<string, string> = {};
  const kept: Translations = {};
  for (const [locale, raw] of Object.entries(input)) {
    const at = `${field}.${locale}`;
    if (!isPublicLocale(locale)) {
      fields[at] = `Unknown language "${locale}": use one of ${PUBLIC_LOCALES.join(', ')}`;
      continue;
    }
    if (typeof raw !== 'string') {
      fields[at] = `${label} (${locale}) must be text`;
      continue;
    }
    const text = raw.trim();
    if (text.length > maxLength) fields[at] = `${label} (${locale}) is longer than ${maxLength} characters`;
    else {
      const problem = plainTextProblem(`${label} (${locale})`, text);
      if (problem) fields[at] = problem;
      else if (text) kept[locale] = text;
    }
  }
  if (Object.keys(fields).length) throw new DomainError('validation', Object.values(fields)[0], { fields });
  return storeTranslations(kept);
}

/** The stored translations as the API shows them ({} when there are none). */
export function presentTranslations(json: string | null | undefined): Translations {
  return parseTranslations(json);
}
