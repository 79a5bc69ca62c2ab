// The company's own texts on its public pages in the reader's language (issue 32): a component's
// public name, a group's name, an incident's title and update written in German show on the German
// page, the incident's page and the history; English and French readers (no French written) get
// the texts as written; caches of the two languages never share them. Both databases.
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { ApiClient, rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { seedMonitor } from './fixtures.ts';

describe.each(DB_KINDS)('company texts on the page in the reader language, on %s', (kind) => {
  let t: TestApp;
  let host = '';
  let admin: ApiClient;
  let incidentId = '';

  const page = async (path: string) => {
    const r = await rawRequest(`${t.baseUrl}${path}`, 'GET', { host: `${host}:${t.port}`, 'accept-encoding': 'br' });
    const html = r.headers.get('content-encoding') === 'br' ? brotliDecompressSync(r.bytes).toString('utf8') : r.bytes.toString('utf8');
    return { status: r.status, html };
  };

  beforeAll(async () => {
    t = await startTestApp({ db: kind, withPages: true });
    const acme = await seedCompany(t.services, { name: 'Acme', subdomain: `texts${kind}` });
    host = `${acme.subdomain}.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    const api = await seedMonitor(t.services.db, acme.id, Date.now(), { name: 'Internal API name' });
    // a second component, so the subscribe page offers a choice of them
    const search = await seedMonitor(t.services.db, acme.id, Date.now(), { name: 'Search' });
    const saved = await admin.put('/api/v1/status-page/settings', {
      languages: ['en', 'de', 'fr'],
      ungrouped: [],
      groups: [
        {
          name: 'Payments',
          name_translations: { de: 'Zahlungen' },
          monitors: [
            {
              monitor_id: api.id,
              is_public: true,
              public_name: 'Checkout',
              public_name_translations: { de: 'Kasse' },
              show_response_chart: true,
            },
            { monitor_id: search.id, is_public: true, public_name: 'Search' },
          ],
        },
      ],
    });
    expect(saved.status, saved.text).toBe(200);
    const incident = await admin.post('/api/v1/incidents', {
      title: 'Card payments failing',
      title_translations: { de: 'Kartenzahlungen schlagen fehl' },
      impact: 'major',
      message: 'We are looking into failed card payments.',
      message_translations: { de: 'Wir untersuchen fehlgeschlagene Kartenzahlungen.' },
      monitor_ids: [api.id],
    });
    expect(incident.status, incident.text).toBe(201);
    incidentId = incident.body.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the German page shows the German texts; English and French readers get them as written', async () => {
    for (let round = 0; round < 2; round++) {
      // alternating, so a cached render of one language is never served to the other
      const de = await page('/?lang=de');
      expect(de.status).toBe(200);
      for (const text of ['Kasse', 'Zahlungen', 'Kartenzahlungen schlagen fehl', 'Wir untersuchen fehlgeschlagene Kartenzahlungen.'])
        expect(de.html, text).toContain(text);
      expect(de.html).not.toContain('Card payments failing');
      // nowhere, the response-time chart's heading included
      expect(de.html).not.toContain('>Checkout<');
      for (const lang of ['en', 'fr']) {
        const other = await page(`/?lang=${lang}`);
        for (const text of ['Checkout', 'Payments', 'Card payments failing', 'We are looking into failed card payments.'])
          expect(other.html, `${lang}: ${text}`).toContain(text);
        expect(other.html).not.toContain('Kartenzahlungen');
        expect(other.html).not.toContain('Zahlungen<');
      }
    }
  });

  it("the incident's own page and the history read in the reader's language", async () => {
    const de = await page(`/incidents/${incidentId}?lang=de`);
    expect(de.status).toBe(200);
    expect(de.html).toContain('Kartenzahlungen schlagen fehl');
    expect(de.html).toContain('Wir untersuchen fehlgeschlagene Kartenzahlungen.');
    const en = await page(`/incidents/${incidentId}?lang=en`);
    expect(en.html).toContain('Card payments failing');
    expect(en.html).not.toContain('Kartenzahlungen');
    const history = await page('/history?lang=de');
    expect(history.html).toContain('Kartenzahlungen schlagen fehl');
    // the subscribe page's choice of components too
    const subscribe = await page('/subscribe?lang=de');
    expect(subscribe.html).toContain('Kasse');
    expect(subscribe.html).not.toContain('>Checkout<');
  });

  it("the subscribe form's refusal is in the page's language", async () => {
    const post = (lang: string) =>
      new ApiClient(t.baseUrl, host).request('POST', `/subscribe?lang=${lang}`, {
        host,
        raw: `email=not-an-address&language=${lang}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const de = await post('de');
    expect(de.status).toBe(400);
    expect(de.text).toContain('Geben Sie eine gültige E-Mail-Adresse ein');
    const fr = await post('fr');
    expect(fr.text).toContain('Saisissez une adresse e-mail valide');
  });
});
