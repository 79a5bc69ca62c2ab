// The pages of a host with no company (unknown or inactive, or outside the product domain) have no
// page languages: they answer in the visitor's (the address's lang, else Accept-Language) among
// the twelve, else English, and say that they vary on Accept-Language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';

describe('pages with no company, in the visitor language', () => {
  let t: TestApp;
  const get = async (host: string, path: string, headers: Record<string, string> = {}) => {
    const r = await rawRequest(`${t.baseUrl}${path}`, 'GET', { host: `${host}:${t.port}`, ...headers });
    return { status: r.status, headers: r.headers, html: r.bytes.toString('utf8') };
  };

  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite', withPages: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an unknown company: English by default, German and Arabic when asked', async () => {
    const host = `nobody.${t.config.productDomain}`;
    const en = await get(host, '/');
    expect(en.status).toBe(404);
    expect(en.html).toMatch(/<h1[^>]*>Status Page Not Found<\/h1>/);
    const de = await get(host, '/', { 'accept-language': 'de-DE,de;q=0.9' });
    expect(de.html).toMatch(/<h1[^>]*>Statusseite nicht gefunden<\/h1>/);
    expect(de.html).toContain('Zur Anmeldung');
    expect(de.headers.get('content-language')).toBe('de');
    expect(de.headers.get('vary') ?? '').toMatch(/Accept-Language/i);
    const ar = await get(host, '/history?lang=ar');
    expect(ar.html).toContain('dir="rtl"');
    expect(ar.html).toContain('لم يتم العثور على صفحة الحالة');
  });

  it('a host outside the product domain names the domain in the visitor language', async () => {
    const fr = await get('elsewhere.example', '/', { 'accept-language': 'fr' });
    expect(fr.html).toContain('Sous-domaine non valide');
    expect(fr.html).toContain(t.config.productDomain);
  });
});
