// The "Other languages" disclosure beside a company text (issue 32): one box per public language
// for the company's version of the text there; readers of a language left empty read the base
// text. Every public language is offered until a company can narrow its page's languages.
import { LOCALE_NAMES, PUBLIC_LOCALES, directionOf } from '../../../lib/i18n/locales.ts';
import { t } from '../i18n.ts';
import { Field } from './Field.tsx';

export type Translations = Record<string, string>;

/** Only the languages with a text (what the API stores). */
export function filledTranslations(value: Translations): Translations {
  return Object.fromEntries(Object.entries(value).filter(([, text]) => text.trim() !== ''));
}

/** The problems of one translations field by language ('message_translations.de' -> de). */
export function languageErrors(fields: Readonly<Record<string, string | undefined>>, field: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(fields)) if (key.startsWith(`${field}.`) && text) out[key.slice(field.length + 1)] = text;
  return out;
}

export function OtherLanguages(props: {
  id: string;
  /** the base field's label ('Message'), named in each box's label */
  field: string;
  value: Translations;
  onChange: (next: Translations) => void;
  maxLength: number;
  multiline?: boolean;
  /** problems by language code (from 'message_translations.de') */
  errors?: Record<string, string | undefined>;
}) {
  const filled = Object.keys(filledTranslations(props.value)).length;
  return (
    <details className="sw-other-languages" open={filled > 0 || undefined}>
      <summary>
        {t('companyTexts.otherLanguages')}
        {filled > 0 ? ` (${filled})` : ''}
      </summary>
      <small className="sw-hint">{t('companyTexts.otherLanguagesHint')}</small>
      {PUBLIC_LOCALES.map((locale) => {
        const id = `${props.id}-${locale}`;
        const common = {
          id,
          lang: locale,
          dir: directionOf(locale),
          maxLength: props.maxLength,
          value: props.value[locale] ?? '',
          onChange: (e: { target: { value: string } }) => props.onChange({ ...props.value, [locale]: e.target.value }),
        };
        return (
          <Field
            key={locale}
            id={id}
            label={t('companyTexts.inLanguage', { field: props.field, language: LOCALE_NAMES[locale] })}
            error={props.errors?.[locale]}
          >
            {props.multiline ? <textarea rows={2} {...common} /> : <input type="text" {...common} />}
          </Field>
        );
      })}
    </details>
  );
}
