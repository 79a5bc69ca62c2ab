import { describe, expect, it } from 'vitest';
import { PUBLIC_LOCALES, directionOf } from '../../../src/lib/i18n/locales.ts';
import { negotiateLocale } from '../../../src/lib/i18n/negotiate.ts';
import { PUBLIC_AREA } from '../../../src/lib/i18n/messages/public/index.ts';

const offered = [...PUBLIC_LOCALES];

describe('negotiateLocale', () => {
  it('takes an explicit choice that is offered', () => {
    expect(negotiateLocale({ explicit: 'ja', acceptLanguage: 'de', offered, fallback: 'en' })).toBe('ja');
  });
  it('ignores an explicit choice that is not offered and reads Accept-Language', () => {
    expect(negotiateLocale({ explicit: 'xx', acceptLanguage: 'de', offered: ['en', 'de'], fallback: 'en' })).toBe('de');
    expect(negotiateLocale({ explicit: 'fr', acceptLanguage: null, offered: ['en', 'de'], fallback: 'de' })).toBe('de');
  });
  it('honours q-values and finds a language from a regional tag', () => {
    expect(negotiateLocale({ acceptLanguage: 'fr;q=0.4, de-AT;q=0.9, en;q=0.1', offered, fallback: 'en' })).toBe('de');
    expect(negotiateLocale({ acceptLanguage: 'pt-BR,pt;q=0.9', offered, fallback: 'en' })).toBe('pt');
    expect(negotiateLocale({ acceptLanguage: 'zh', offered, fallback: 'en' })).toBe('zh-CN');
    expect(negotiateLocale({ acceptLanguage: 'zh-Hans-CN', offered, fallback: 'en' })).toBe('zh-CN');
    expect(negotiateLocale({ acceptLanguage: 'he-IL', offered, fallback: 'en' })).toBe('he');
  });
  it('falls back to the page default for nothing usable', () => {
    expect(negotiateLocale({ acceptLanguage: 'sv, fi;q=0.5', offered: ['en', 'de'], fallback: 'de' })).toBe('de');
    expect(negotiateLocale({ acceptLanguage: '*', offered, fallback: 'fr' })).toBe('fr');
    expect(negotiateLocale({ acceptLanguage: '%%%;q=x, <script>', offered, fallback: 'en' })).toBe('en');
    expect(negotiateLocale({ acceptLanguage: '', offered, fallback: 'it' })).toBe('it');
  });
});

describe('remembered answers', () => {
  it("answer per offered set and fallback: the same header asked again of another page gets that page's choice", () => {
    const header = 'de-DE,de;q=0.9,fr;q=0.8';
    expect(negotiateLocale({ acceptLanguage: header, offered: ['en', 'de', 'fr'], fallback: 'en' })).toBe('de');
    expect(negotiateLocale({ acceptLanguage: header, offered: ['en', 'fr'], fallback: 'en' })).toBe('fr');
    expect(negotiateLocale({ acceptLanguage: header, offered: ['en', 'es'], fallback: 'en' })).toBe('en');
    expect(negotiateLocale({ acceptLanguage: header, offered: ['it', 'es'], fallback: 'it' })).toBe('it');
    // asked again, in another order: the same answers
    expect(negotiateLocale({ acceptLanguage: header, offered: ['en', 'fr'], fallback: 'en' })).toBe('fr');
    expect(negotiateLocale({ acceptLanguage: header, offered: ['en', 'de', 'fr'], fallback: 'en' })).toBe('de');
    // the URL's choice still wins over a remembered header
    expect(negotiateLocale({ explicit: 'fr', acceptLanguage: header, offered: ['en', 'de', 'fr'], fallback: 'en' })).toBe('fr');
  });
});

describe('translators', () => {
  it('formats in each language and is right to left for Arabic and Hebrew', () => {
    expect(PUBLIC_AREA.translator('de').t('language.label')).toBe('Sprache');
    expect(PUBLIC_AREA.translator('ja').t('language.label')).toBe('言語');
    expect(PUBLIC_AREA.translator('xx').t('language.label')).toBe('Language');
    expect(PUBLIC_AREA.translator('en-XA').t('language.label')).toBe('[Ļåñĝûåĝé]');
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('he')).toBe('rtl');
    expect(directionOf('de')).toBe('ltr');
  });
});
