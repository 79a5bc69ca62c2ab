// One catalogue area (the public side, the console, embeds, ...): its messages per language, and
// the translator of a language, made once and kept. The pseudo-locale (en-XA) is derived from
// English here so tests can render any page in it.
import { PSEUDO_LOCALE, SOURCE_LOCALE } from './locales.ts';
import { pseudoCatalogue } from './pseudo.ts';
import { createTranslator, type Messages, type Translator } from './translator.ts';

export interface CatalogueArea<L extends string, K extends string> {
  readonly name: string;
  readonly locales: readonly L[];
  readonly messages: Readonly<Record<L, Messages>>;
  /** The translator of `locale` (English for a language the area lacks; en-XA the pseudo-locale). */
  translator(locale: string): Translator<K>;
}

export function defineArea<L extends string, K extends string>(
  name: string,
  messages: Readonly<Record<L, Messages>> & { readonly en: Messages },
): CatalogueArea<L, K> {
  const made = new Map<string, Translator<K>>();
  const english = messages.en;
  const locales = Object.keys(messages) as L[];
  return {
    name,
    locales,
    messages,
    translator(locale) {
      let tr = made.get(locale);
      if (tr) return tr;
      if (locale === PSEUDO_LOCALE) tr = createTranslator<K>(PSEUDO_LOCALE, pseudoCatalogue(english), english);
      else if ((locales as string[]).includes(locale)) tr = createTranslator<K>(locale, messages[locale as L], english);
      else tr = createTranslator<K>(SOURCE_LOCALE, english);
      made.set(locale, tr);
      return tr;
    },
  };
}
