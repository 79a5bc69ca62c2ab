// Which language and time zone a visitor of a public page reads it in (issue 32), and the words,
// dates and numbers of that choice. The company sets a default language, the page the languages it
// offers and its own time zone (PageLanguages, from the snapshot); the visitor's `?lang=` (when
// offered) wins, else the best Accept-Language match among the offered, else the default; `?tz=`
// (a valid IANA zone) wins over the page's zone. A choice made in the URL is carried by the
// page's own links (withChoice), so a cached page never depends on anything but its URL, except
// the Accept-Language pick, which is answered with `Vary: Accept-Language`.
// Pure: Intl and the catalogues only.
import { directionOf, isPublicLocale, negotiateLocale, PSEUDO_LOCALE, PUBLIC_LOCALES, type PublicLocale } from './i18n/index.ts';
import { PUBLIC_AREA, type PublicKey } from './i18n/messages/public/index.ts';
import type { MessageValues } from './i18n/translator.ts';
import { formatUtcDay, formatUtcMinute } from './dates.ts';

export interface PageLanguages {
  /** the company's default language: read when the browser names none of the offered */
  defaultLanguage: PublicLocale;
  /** the languages the page offers, the default first */
  offered: PublicLocale[];
  /** the page's own time zone (IANA), 'UTC' unless set */
  timeZone: string;
}

export const DEFAULT_LANGUAGES: PageLanguages = { defaultLanguage: 'en', offered: ['en'], timeZone: 'UTC' };

const zoneCache = new Map<string, boolean>();
/** An IANA time zone Intl knows ('Europe/Berlin', 'UTC'); remembered per name. */
export function isTimeZone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || tz.length === 0 || tz.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(tz)) return false;
  let ok = zoneCache.get(tz);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      ok = true;
    } catch {
      ok = false;
    }
    if (zoneCache.size > 1000) zoneCache.clear();
    zoneCache.set(tz, ok);
  }
  return ok;
}

/** The stored settings as a page reads them; anything unknown falls back (never throws). */
export function pageLanguagesOf(defaultLanguage: unknown, offeredJson: string | null | undefined, timeZone: unknown): PageLanguages {
  const def: PublicLocale = isPublicLocale(defaultLanguage) ? defaultLanguage : 'en';
  let listed: unknown = null;
  try {
    listed = offeredJson ? JSON.parse(offeredJson) : null;
  } catch {
    listed = null;
  }
  const others = Array.isArray(listed) ? PUBLIC_LOCALES.filter((l) => l !== def && listed.includes(l)) : [];
  return { defaultLanguage: def, offered: [def, ...others], timeZone: isTimeZone(timeZone) ? timeZone : 'UTC' };
}

/** One rendering of a page: its language and time zone, and how they were chosen. */
export interface PageVariant {
  locale: PublicLocale | typeof PSEUDO_LOCALE;
  dir: 'ltr' | 'rtl';
  timeZone: string;
  /** the language came from the URL: links carry it */
  langInUrl: boolean;
  /** the time zone came from the URL: links carry it */
  tzInUrl: boolean;
  /** the language came from Accept-Language among several offered: the answer varies on it */
  byAcceptLanguage: boolean;
  /** the languages offered, for the switch and hreflang links */
  offered: readonly PublicLocale[];
  /**
   * '' for the page's plain rendering (English, UTC, nothing chosen in the URL), else
   * 'de|Europe/Berlin|l' (l: links carry lang, t: they carry tz): keys rendered bytes and ETags
   */
  key: string;
}

export interface VariantRequest {
  lang?: string | null;
  tz?: string | null;
  acceptLanguage?: string | null;
  /** accept ?lang=en-XA (tests only: I18N_PSEUDO_LOCALE=1) */
  pseudo?: boolean;
}

const negotiated = new Map<string, PublicLocale>();

/** The variant a request gets. Accept-Language is matched once per distinct (offered, header). */
export function choosePageVariant(langs: PageLanguages, req: VariantRequest): PageVariant {
  const offered = langs.offered;
  let locale: PublicLocale | typeof PSEUDO_LOCALE;
  let langInUrl = false;
  let byAcceptLanguage = false;
  if (req.pseudo && req.lang === PSEUDO_LOCALE) {
    locale = PSEUDO_LOCALE;
    langInUrl = true;
  } else if (req.lang && (offered as readonly string[]).includes(req.lang)) {
    locale = req.lang as PublicLocale;
    langInUrl = true;
  } else if (offered.length > 1) {
    byAcceptLanguage = true;
    const memoKey = `${offered.join(',')}|${req.acceptLanguage ?? ''}`;
    let found = negotiated.get(memoKey);
    if (!found) {
      found = negotiateLocale({ acceptLanguage: req.acceptLanguage, offered, fallback: langs.defaultLanguage });
      if (memoKey.length < 300) {
        if (negotiated.size > 2000) negotiated.clear();
        negotiated.set(memoKey, found);
      }
    }
    locale = found;
  } else locale = langs.defaultLanguage;
  const tzInUrl = !!req.tz && req.tz !== langs.timeZone && isTimeZone(req.tz);
  const timeZone = tzInUrl ? req.tz! : langs.timeZone;
  const flags = `${langInUrl ? 'l' : ''}${tzInUrl ? 't' : ''}`;
  const key = locale === 'en' && timeZone === 'UTC' && flags === '' ? '' : `${locale}|${timeZone}|${flags}`;
  return { locale, dir: directionOf(locale), timeZone, langInUrl, tzInUrl, byAcceptLanguage, offered, key };
}

/** The plain variant (English, UTC): what a page without language settings shows. */
export const PLAIN_VARIANT: PageVariant = choosePageVariant(DEFAULT_LANGUAGES, {});

/** A snapshot's ETag for one variant: the plain one keeps the snapshot's own. */
export function variantEtag(etag: string, variant: Pick<PageVariant, 'key'>): string {
  return variant.key === '' ? etag : `${etag.slice(0, -1)}~${variant.key}"`;
}

/** A link inside the page, carrying the language and time zone the URL chose. */
export function withChoice(href: string, v: Pick<PageVariant, 'langInUrl' | 'tzInUrl' | 'locale' | 'timeZone'>): string {
  if (!v.langInUrl && !v.tzInUrl) return href;
  const hash = href.indexOf('#');
  const path = hash < 0 ? href : href.slice(0, hash);
  const frag = hash < 0 ? '' : href.slice(hash);
  const params: string[] = [];
  if (v.langInUrl) params.push(`lang=${encodeURIComponent(v.locale)}`);
  if (v.tzInUrl) params.push(`tz=${encodeURIComponent(v.timeZone)}`);
  return `${path}${path.includes('?') ? '&' : '?'}${params.join('&')}${frag}`;
}

/** The words, dates and numbers of one variant, made once per (language, time zone). */
export interface PageText {
  readonly variant: Pick<PageVariant, 'locale' | 'timeZone'>;
  t(key: PublicKey, values?: MessageValues): string;
  /** a moment to the minute ('2026-11-22 14:05 UTC' in the plain variant), `never` for none */
  dateTime(ms: number | null | undefined, never?: string): string;
  /** a day ('2026-11-22' in the plain variant) */
  day(ms: number): string;
  /** '14:00' of a moment in the zone */
  hour(ms: number): string;
  /** a month and year ('November 2026') */
  month(ms: number): string;
  /** short month name for calendars ('Nov 2026') */
  shortMonth(ms: number): string;
  /** uptime percent with 2 decimals in the locale's way ('99.95%', '99,95 %'); '—' for none */
  percent(p: number | null | undefined): string;
  /** a response time ('123.40 ms'); '—' for none */
  ms(ms: number | null | undefined): string;
  /** a UTC day (calendar days of the uptime page), '2026-11-22' in English */
  utcDay(ms: number): string;
  /** a threshold percent ('99.9 %' in English) */
  percentShort(p: number): string;
  /** a count in the locale's digits */
  count(n: number): string;
  /** the zone as shown next to times ('UTC', 'MEZ', 'GMT+1') */
  zoneName: string;
}

const texts = new Map<string, PageText>();

/** The PageText of a variant (kept per language and zone: formatters are costly to make). */
export function pageText(variant: Pick<PageVariant, 'locale' | 'timeZone'>): PageText {
  const k = `${variant.locale}|${variant.timeZone}`;
  let made = texts.get(k);
  if (!made) {
    made = makeText(variant.locale, variant.timeZone);
    texts.set(k, made);
  }
  return made;
}

function makeText(locale: string, timeZone: string): PageText {
  const tr = PUBLIC_AREA.translator(locale);
  const plain = locale === 'en' && timeZone === 'UTC';
  // The pseudo-locale writes dates and numbers as Japanese does (digits and signs, no ASCII
  // words): its test reads any plain English word left on the page as text that bypassed the catalogue.
  const intlLocale = locale === PSEUDO_LOCALE ? 'ja' : locale;
  const dt = new Intl.DateTimeFormat(intlLocale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const dayF = new Intl.DateTimeFormat(intlLocale, { dateStyle: 'medium', timeZone });
  const hourF = new Intl.DateTimeFormat(intlLocale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone });
  // months of the history and uptime pages are UTC months: named in UTC so none shifts
  const monthF = new Intl.DateTimeFormat(intlLocale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const shortMonthF = new Intl.DateTimeFormat(intlLocale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const pct = new Intl.NumberFormat(intlLocale, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const num2 = new Intl.NumberFormat(intlLocale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const int = new Intl.NumberFormat(intlLocale);
  const pctShort = new Intl.NumberFormat(intlLocale, { style: 'percent', maximumFractionDigits: 1 });
  const utcDayF = new Intl.DateTimeFormat(intlLocale, { dateStyle: 'medium', timeZone: 'UTC' });
  const zoneName =
    timeZone === 'UTC'
      ? 'UTC'
      : (new Intl.DateTimeFormat(intlLocale, { timeZone, timeZoneName: 'short' }).formatToParts(0).find((p) => p.type === 'timeZoneName')
          ?.value ?? timeZone);
  const hourPlain = (ms: number) => new Date(ms).toISOString().slice(11, 16);
  return {
    variant: { locale: locale as PageVariant['locale'], timeZone },
    t: (key, values) => tr.t(key, values),
    dateTime: (ms, never) => {
      if (ms == null || !Number.isFinite(ms)) return never ?? tr.t('time.never');
      return plain ? formatUtcMinute(ms) : `${dt.format(ms)} ${zoneName}`;
    },
    day: (ms) => (plain ? formatUtcDay(ms) : dayF.format(ms)),
    hour: (ms) => (timeZone === 'UTC' ? hourPlain(ms) : hourF.format(ms)),
    month: (ms) => monthF.format(ms),
    shortMonth: (ms) => shortMonthF.format(ms),
    percent: (p) => (p == null || !Number.isFinite(p) ? '—' : locale === 'en' ? `${p.toFixed(2)}%` : pct.format(p / 100)),
    ms: (v) => (v == null || !Number.isFinite(v) ? '—' : tr.t('unit.ms', { value: locale === 'en' ? v.toFixed(2) : num2.format(v) })),
    count: (n) => int.format(n),
    utcDay: (ms) => (locale === 'en' ? formatUtcDay(ms) : utcDayF.format(ms)),
    percentShort: (p) => (locale === 'en' ? `${p} %` : pctShort.format(p / 100)),
    zoneName,
  };
}

/** The variant of a page request: its URL's `lang` and `tz`, its Accept-Language. */
export function variantOfRequest(langs: PageLanguages, url: URL, acceptLanguage: string | null, pseudo = false): PageVariant {
  return choosePageVariant(langs, { lang: url.searchParams.get('lang'), tz: url.searchParams.get('tz'), acceptLanguage, pseudo });
}

/**
 * The headers a variant adds to its page: its language, and `Vary: Accept-Language` when the
 * browser's languages chose it (a shared cache must not give that answer to another browser).
 */
export function variantHeaders(variant: PageVariant): { 'content-language': string; vary: string } {
  return {
    'content-language': variant.locale,
    vary: variant.byAcceptLanguage ? 'Accept-Encoding, Accept-Language' : 'Accept-Encoding',
  };
}

/** This page's path and query without `lang` and `tz` (the switch and hreflang links add theirs). */
export function hereOf(url: URL): string {
  const params = new URLSearchParams(url.searchParams);
  params.delete('lang');
  params.delete('tz');
  const rest = params.toString();
  return rest ? `${url.pathname}?${rest}` : url.pathname;
}

/** The variant of a page beside the status page: from its snapshot's languages, plain without one. */
export function variantOfLookup(
  found: { kind: string; view?: { languages: PageLanguages } } | null,
  url: URL,
  acceptLanguage: string | null,
  pseudo = false,
): PageVariant {
  const langs = found && 'view' in found && found.view ? found.view.languages : null;
  return langs ? variantOfRequest(langs, url, acceptLanguage, pseudo) : PLAIN_VARIANT;
}
