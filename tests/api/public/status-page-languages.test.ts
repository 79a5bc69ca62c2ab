// The public pages in twelve languages (issue 32, item 1) on SQLite and PostgreSQL: the company's
// default language and the page's offered languages and time zone saved through the API; each
// page (status, history, an incident, uptime) rendered in each language with its words, <html
// lang dir>, hreflang links and switch; Accept-Language and ?lang= choosing; the cache serving
// alternating visitors of different languages without mixing (bodies, ETags, Vary); and the
// pseudo-locale en-XA finding no English left outside the catalogue.
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { seedIncident, seedMaintenance, seedMonitor, seedScriptedHistory } from './fixtures.ts';
import { PUBLIC_AREA } from '../../../src/lib/i18n/messages/public/index.ts';
import { PUBLIC_LOCALES } from '../../../src/lib/i18n/index.ts';

const NOW = Date.UTC(2026, 10, 24, 13, 5);
const SETTINGS = '/api/v1/status-page/settings';
const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
/** What a reader gets of a page: its text and the texts of aria-label, title, alt and content attributes. */
function readable(html: string): string {
  const attrs = [...html.matchAll(/\s(?:aria-label|title|alt|placeholder)="([^"]*)"/g)].map((m) => m[1]);
  const description = [...html.matchAll(/<meta name="description" content="([^"]*)"/g)].map((m) => m[1]);
  const body = html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ' ').replace(/<[^>]+>/g, ' ');
  return decode([body, ...attrs, ...description].join(' ')).replace(/\s+/g, ' ');
}
const words = (locale: string) => PUBLIC_AREA.translator(locale);

describe.each(DB_KINDS)('status page languages on %s', (kind) => {
  let t: TestApp;
  const clock = NOW;
  let acme: { id: string; subdomain: string };
  let host = '';
  let admin: ApiClient;
  let incidentId = '';
  /** the company's own texts: not ours to translate (another engineer adds per-language company texts) */
  const companyData = [
    'Acme Corp',
    'Acme Corp API',
    'Acme Corp Website',
    'Payments slow',
    'We are looking into it.',
    'Fixed.',
    'Database upgrade',
    'We are upgrading the primary database.',
  ];

  const page = async (path: string, headers: Record<string, string> = {}) => {
    const r = await rawRequest(`${t.baseUrl}${path}`, 'GET', { host: `${host}:${t.port}`, ...headers });
    const body = r.headers.get('content-encoding') === 'br' ? brotliDecompressSync(r.bytes).toString('utf8') : r.bytes.toString('utf8');
    return { status: r.status, headers: r.headers, html: body };
  };

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, withPages: true, env: { I18N_PSEUDO_LOCALE: '1' } });
    acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: `langs${kind}` });
    host = `${acme.subdomain}.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    const api = await seedMonitor(t.services.db, acme.id, clock, { name: 'Acme Corp API' });
    const web = await seedMonitor(t.services.db, acme.id, clock, { name: 'Acme Corp Website' });
    await seedScriptedHistory(t.services.db, api, clock);
    await seedScriptedHistory(t.services.db, web, clock);
    incidentId = await seedIncident(t.services.db, acme.id, clock, {
      monitorId: api.id,
      title: 'Payments slow',
      severity: 'high',
      status: 'resolved',
      startedAt: NOW - 5 * 3_600_000,
      resolvedAt: NOW - 3 * 3_600_000,
      updates: [
        { status: 'investigating', message: 'We are looking into it.', at: NOW - 5 * 3_600_000 },
        { status: 'resolved', message: 'Fixed.', at: NOW - 3 * 3_600_000 },
      ],
    });
    await seedMaintenance(t.services.db, acme.id, NOW - 86_400_000, {
      title: 'Database upgrade',
      startsAt: NOW + 86_400_000,
      endsAt: NOW + 90_000_000,
    });
  });
  afterAll(() => t?.close());

  it('saves the default language, the offered languages and the time zone, refusing what no page can show', async () => {
    const profile = await admin.put(`/api/v1/companies/${acme.id}/profile`, { default_language: 'xx' });
    expect(profile.status).toBe(400);
    expect(profile.body.errors.default_language).toMatch(/default_language/);
    const before = (await admin.get(SETTINGS)).body;
    expect(before).toMatchObject({ default_language: 'en', languages: ['en'], time_zone: 'UTC' });
    const layout = { groups: [], ungrouped: [] };
    const unknown = await admin.put(SETTINGS, { ...layout, languages: ['en', 'tlh'] });
    expect(unknown.status).toBe(400);
    const withoutDefault = await admin.put(SETTINGS, { ...layout, languages: ['de', 'fr'] });
    expect(withoutDefault.status).toBe(400);
    expect(withoutDefault.body.errors.languages).toMatch(/default language \(English\)/);
    const badZone = await admin.put(SETTINGS, { ...layout, languages: ['en'], time_zone: 'Mars/Olympus' });
    expect(badZone.status).toBe(400);
    expect(badZone.body.errors.time_zone).toMatch(/not a time zone/);
    const saved = await admin.put(SETTINGS, { ...layout, languages: [...PUBLIC_LOCALES].reverse(), time_zone: 'Europe/Berlin' });
    expect(saved.status).toBe(200);
    // kept in the languages' own order, the default first
    expect(saved.body.languages).toEqual([...PUBLIC_LOCALES]);
    expect(saved.body.time_zone).toBe('Europe/Berlin');
    const german = await admin.put(`/api/v1/companies/${acme.id}/profile`, { default_language: 'de' });
    expect(german.status).toBe(200);
    expect(german.body.default_language).toBe('de');
    expect((await admin.get(SETTINGS)).body.languages[0]).toBe('de');
    // back to English for the pages below
    expect((await admin.put(`/api/v1/companies/${acme.id}/profile`, { default_language: 'en' })).status).toBe(200);
  });

  it.each(PUBLIC_LOCALES.map((l) => [l]))('renders every public page in %s', async (locale) => {
    const w = words(locale);
    const checks: Array<[string, string[]]> = [
      ['/', ['page.serviceStatus', 'page.pastIncidents', 'row.lastChecked', 'shell.navHistory', 'page.scheduledMaintenance']],
      ['/history?month=2026-11', ['history.title', 'history.incidents', 'incident.status.resolved']],
      [`/incidents/${incidentId}`, ['incidentPage.state', 'incidentPage.timeline', 'incident.status.investigating']],
      ['/uptime', ['uptime.title', 'uptime.legendNone']],
    ];
    for (const [path, keys] of checks) {
      const sep = path.includes('?') ? '&' : '?';
      const r = await page(`${path}${sep}lang=${locale}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-language')).toBe(locale);
      expect(r.html).toContain(`<html lang="${locale}" dir="${locale === 'ar' || locale === 'he' ? 'rtl' : 'ltr'}"`);
      const text = readable(r.html);
      for (const k of keys) expect(text, `${path} ${k}`).toContain(decode(w.t(k as never)));
      // every offered language linked, plus x-default; the page's own links keep the choice
      for (const l of PUBLIC_LOCALES) expect(r.html).toContain(`hreflang="${l}"`);
      expect(r.html).toContain('hreflang="x-default"');
      if (path !== '/history?month=2026-11') expect(r.html).toContain(`href="/history?lang=${locale}"`);
      if (locale !== 'en') {
        // English words of the page are gone (the company's texts stay as written)
        for (const k of keys) if (w.t(k as never) !== words('en').t(k as never)) expect(text).not.toContain(words('en').t(k as never));
      }
    }
  });

  it('writes times in the page zone or the visitor-chosen one, numbers the locale way', async () => {
    const berlin = await page('/?lang=de');
    // 13:05 UTC is 14:05 in Berlin in November
    expect(readable(berlin.html)).toMatch(/24\.11\.2026, 14:05 MEZ/);
    // the German decimal comma and a (no-break) space before the percent sign
    expect(readable(berlin.html)).toMatch(/\d+,\d\d\s%/);
    const tokyo = await page('/?lang=de&tz=Asia/Tokyo');
    expect(readable(tokyo.html)).toMatch(/24\.11\.2026, 22:05/);
    expect(tokyo.html).toContain('href="/history?lang=de&amp;tz=Asia%2FTokyo"');
    // an unknown zone falls back to the page's
    const bad = await page('/?lang=de&tz=Nowhere/Else');
    expect(readable(bad.html)).toMatch(/14:05 MEZ/);
    expect(bad.headers.get('etag')).toBe(berlin.headers.get('etag'));
  });

  it('chooses by Accept-Language among the offered, else the default, and says it varies', async () => {
    const fr = await page('/', { 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.5' });
    expect(fr.html).toContain('<html lang="fr"');
    expect(fr.headers.get('vary')).toBe('Accept-Encoding, Accept-Language');
    expect(fr.headers.get('content-language')).toBe('fr');
    const zh = await page('/', { 'accept-language': 'zh-Hans-CN' });
    expect(zh.headers.get('content-language')).toBe('zh-CN');
    const none = await page('/', { 'accept-language': 'tlh, sw' });
    expect(none.headers.get('content-language')).toBe('en');
    // an explicit choice beats the browser, and the answer then does not vary on it
    const explicit = await page('/?lang=ja', { 'accept-language': 'fr' });
    expect(explicit.headers.get('content-language')).toBe('ja');
    expect(explicit.headers.get('vary')).toBe('Accept-Encoding');
    // a language the page does not offer is not taken from the URL
    await admin.put(SETTINGS, { groups: [], ungrouped: [], languages: ['en', 'de'] });
    const notOffered = await page('/?lang=ja', { 'accept-language': 'de' });
    expect(notOffered.headers.get('content-language')).toBe('de');
    await admin.put(SETTINGS, { groups: [], ungrouped: [], languages: [...PUBLIC_LOCALES] });
  });

  it('serves German and English to alternating visitors from the cache without mixing them', async () => {
    const seen: Record<string, { etag: string; html: string }> = {};
    for (let i = 0; i < 6; i++) {
      for (const [lang, accept] of [
        ['de', 'de-DE,de;q=0.9'],
        ['en', 'en-US,en;q=0.9'],
      ]) {
        const r = await page('/', { 'accept-language': accept, 'accept-encoding': 'br' });
        expect(r.status).toBe(200);
        expect(r.headers.get('vary')).toBe('Accept-Encoding, Accept-Language');
        expect(r.headers.get('content-language')).toBe(lang);
        expect(r.html).toContain(`<html lang="${lang}"`);
        expect(readable(r.html)).toContain(words(lang).t('page.serviceStatus'));
        const etag = r.headers.get('etag')!;
        if (seen[lang]) {
          expect(etag).toBe(seen[lang].etag);
          expect(r.html).toBe(seen[lang].html);
        } else seen[lang] = { etag, html: r.html };
      }
    }
    expect(seen.de.etag).not.toBe(seen.en.etag);
    // each ETag revalidates its own language only
    const again = await page('/', { 'accept-language': 'de', 'accept-encoding': 'br', 'if-none-match': seen.de.etag });
    expect(again.status).toBe(304);
    const other = await page('/', { 'accept-language': 'en', 'accept-encoding': 'br', 'if-none-match': seen.de.etag });
    expect(other.status).toBe(200);
    expect(other.html).toContain('<html lang="en"');
  });

  it.each(PUBLIC_LOCALES.map((l) => [l]))('renders the subscribe, confirm and unsubscribe pages in %s', async (locale) => {
    const w = words(locale);
    const checks: Array<[string, number, string[]]> = [
      ['/subscribe', 200, ['subscribePage.title', 'subscribe.button', 'subscribe.email', 'subscribePage.back']],
      // a link that is no longer valid: the page a visitor most often gets from an old mail
      ['/subscribe/confirm/not-a-token', 404, ['confirm.invalidTitle', 'confirm.invalidText']],
      ['/unsubscribe/not-a-token', 404, ['confirm.invalidTitle', 'unsubscribe.invalidText']],
    ];
    for (const [path, status, keys] of checks) {
      const r = await page(`${path}?lang=${locale}`);
      expect(r.status, path).toBe(status);
      expect(r.html).toContain(`<html lang="${locale}" dir="${locale === 'ar' || locale === 'he' ? 'rtl' : 'ltr'}"`);
      const text = readable(r.html);
      for (const k of keys) expect(text, `${path} ${k}`).toContain(decode(w.t(k as never)));
    }
    // the form posts back in the language chosen
    expect((await page(`/subscribe?lang=${locale}`)).html).toContain(`action="/subscribe?lang=${locale}"`);
  });

  it.each([
    '/',
    '/history?month=2026-11',
    '/uptime',
    'incident',
    '/subscribe',
    '/subscribe/confirm/not-a-token',
    '/unsubscribe/not-a-token',
  ])('leaves no English outside the catalogue on %s (pseudo-locale)', async (which) => {
    await admin.put(SETTINGS, { groups: [], ungrouped: [], languages: ['en'], time_zone: null });
    const path = which === 'incident' ? `/incidents/${incidentId}` : which;
    const r = await page(`${path}${path.includes('?') ? '&' : '?'}lang=en-XA`);
    expect(r.status).toBe(path.includes('token') ? 404 : 200);
    expect(r.html).toContain('<html lang="en-XA"');
    let text = readable(r.html);
    for (const d of [...companyData, t.config.productName].sort((a, b) => b.length - a.length)) text = text.split(d).join(' ');
    // what the catalogue gave is bracketed; the time zone's name is no word of ours
    const left = text.replace(/\[[^\]]*\]/g, ' ').replace(/\bUTC\b/g, ' ');
    expect(left.match(/[A-Za-z]{2,}(?:\s+[A-Za-z]{2,})*/g) ?? []).toEqual([]);
  });
  it("asks for a private page's password in the visitor's language, and refuses a wrong one in it", async () => {
    expect((await admin.put('/api/v1/status-page/access', { mode: 'password', password: 'open-sesame-1' })).status).toBe(200);
    try {
      const de = await page('/?lang=de');
      expect(de.status).toBe(401);
      expect(de.html).toContain('<html lang="de" dir="ltr">');
      expect(readable(de.html)).toContain(words('de').t('gate.passwordIntro'));
      const ar = await page('/history', { 'accept-language': 'ar-EG,ar;q=0.9' });
      expect(ar.html).toContain('<html lang="ar" dir="rtl">');
      expect(ar.headers.get('vary')).toContain('Accept-Language');
      expect(readable(ar.html)).toContain(words('ar').t('gate.privateTitle'));
      const wrong = await rawRequest(
        `${t.baseUrl}/access`,
        'POST',
        {
          host: `${host}:${t.port}`,
          origin: `http://${host}:${t.port}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        'next=%2F%3Flang%3Dja&password=nope-nope-nope',
      );
      expect(wrong.status).toBe(401);
      expect(readable(wrong.bytes.toString('utf8'))).toContain(words('ja').t('gate.wrongPassword'));
      // no English left on the gate either
      const pseudo = readable((await page('/?lang=en-XA')).html).replace(/\[[^\]]*\]/g, ' ');
      expect(pseudo.match(/[A-Za-z]{2,}(?:\s+[A-Za-z]{2,})*/g) ?? []).toEqual([]);
    } finally {
      await admin.put('/api/v1/status-page/access', { mode: 'public' });
    }
  });
});
