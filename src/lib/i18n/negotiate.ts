// Which of the offered languages a visitor gets: an explicit choice (the `lang` of the URL) when it
// is offered, else the best match of the browser's Accept-Language (q-values honoured; 'de-AT'
// finds 'de', 'zh' and 'zh-Hans' find 'zh-CN', 'pt-BR' finds 'pt'), else the page's default.
// Negotiator parses the header; FormatJS's locale matcher does the matching (the ECMA-402
// "lookup" algorithm after likely-subtags, the same one Intl uses).
import { match } from '@formatjs/intl-localematcher';
import Negotiator from 'negotiator';

/** The browser's languages from an Accept-Language header, most wanted first ('*' dropped). */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  const list = new Negotiator({ headers: { 'accept-language': header } }).languages();
  return list.filter((tag) => tag !== '*' && isWellFormedTag(tag));
}

function isWellFormedTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

export interface LocaleChoice<L extends string> {
  /** the `lang` query value, when the visitor chose one */
  explicit?: string | null;
  acceptLanguage?: string | null;
  offered: readonly L[];
  fallback: L;
}

/**
 * Answers by offered set, fallback and header: parsing and matching cost 10-19 µs a call, a third
 * of what a cached status page answer costs in all, and browsers send few distinct headers.
 */
const answers = new Map<string, string>();
const ANSWERS_KEPT = 2000;

/** The language to serve; always one of `offered` (or `fallback`). */
export function negotiateLocale<L extends string>(choice: LocaleChoice<L>): L {
  const { explicit, offered, fallback } = choice;
  if (explicit && (offered as readonly string[]).includes(explicit)) return explicit as L;
  // one language offered, and it is the fallback: nothing to choose
  if (offered.length === 1 && offered[0] === fallback) return fallback;
  const header = choice.acceptLanguage ?? '';
  // a header longer than any browser's is matched but not kept (it cannot crowd the others out)
  const key = header.length <= 200 ? `${offered.join(',')}|${fallback}|${header}` : null;
  const known = key === null ? undefined : answers.get(key);
  if (known !== undefined) return known as L;
  const found = matchLocale(header, offered, fallback);
  if (key !== null) {
    if (answers.size >= ANSWERS_KEPT) answers.clear();
    answers.set(key, found);
  }
  return found;
}

function matchLocale<L extends string>(header: string, offered: readonly L[], fallback: L): L {
  const wanted = acceptedLanguages(header);
  if (wanted.length === 0 || offered.length === 0) return fallback;
  const found = match(wanted, [...offered], fallback, { algorithm: 'best fit' });
  return (offered as readonly string[]).includes(found) ? (found as L) : fallback;
}
