// Each user's console look (spec: "Default UI settings: theme cyan, font Montserrat, light version
// on") and language (issue 32: English, German, or null = the browser's) on both databases: the defaults for a user who never changed it, a change kept for that
// user only (another user and another company keep theirs), a partial change keeping the rest,
// unknown values and empty bodies refused with a problem response, and no answer without a user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { createPageServices } from '../../../src/server/services.ts';

const DEFAULTS = { theme: 'cyan', font: 'montserrat', light_version: true, language: null };

describe.each(DB_KINDS)('UI settings on %s', (kind) => {
  let t: TestApp;
  let acmeHost: string;
  let acme: { id: string };
  let globex: { id: string; subdomain: string };

  beforeAll(async () => {
    t = await startTestApp({ db: kind });
    acme = await seedCompany(t.services, { subdomain: 'acme' });
    globex = await seedCompany(t.services, { subdomain: 'globex' });
    acmeHost = `acme.${t.config.productDomain}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function signedIn(companyId: string, host: string, userType: 2 | 3 = 2) {
    const u = await seedUser(t.services, { userType, companyId });
    const c = new ApiClient(t.baseUrl, host);
    await signIn(c, u);
    return { user: u, client: c };
  }

  it("answers the spec's defaults to a user who never changed them, and to the console page", async () => {
    const { user, client } = await signedIn(acme.id, acmeHost, 3);
    const r = await client.get('/api/v1/auth/ui-settings');
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual(DEFAULTS);
    const pages = createPageServices(t.services);
    expect(await pages.uiSettings(user.id)).toEqual(DEFAULTS);
    expect(await pages.uiSettings(null)).toEqual(DEFAULTS);
  });

  it('keeps a change for that user only; a partial change keeps the other fields', async () => {
    const ada = await signedIn(acme.id, acmeHost);
    const bob = await signedIn(acme.id, acmeHost);
    const eve = await signedIn(globex.id, `globex.${t.config.productDomain}`);
    const put = await ada.client.put('/api/v1/auth/ui-settings', { theme: 'purple', font: 'system', light_version: false });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ theme: 'purple', font: 'system', light_version: false, language: null });
    expect((await ada.client.get('/api/v1/auth/ui-settings')).body).toEqual({
      theme: 'purple',
      font: 'system',
      light_version: false,
      language: null,
    });
    expect((await bob.client.get('/api/v1/auth/ui-settings')).body).toEqual(DEFAULTS);
    expect((await eve.client.get('/api/v1/auth/ui-settings')).body).toEqual(DEFAULTS);

    const partial = await ada.client.put('/api/v1/auth/ui-settings', { light_version: true });
    expect(partial.body).toEqual({ theme: 'purple', font: 'system', light_version: true, language: null });
    expect(await createPageServices(t.services).uiSettings(ada.user.id)).toEqual({
      theme: 'purple',
      font: 'system',
      light_version: true,
      language: null,
    });
  });

  it("keeps a user's console language, back to the browser's with null; the other fields stay", async () => {
    const ada = await signedIn(acme.id, acmeHost);
    const bob = await signedIn(acme.id, acmeHost);
    const de = await ada.client.put('/api/v1/auth/ui-settings', { language: 'de' });
    expect(de.status, de.text).toBe(200);
    expect(de.body).toEqual({ ...DEFAULTS, language: 'de' });
    expect((await ada.client.get('/api/v1/auth/ui-settings')).body).toEqual({ ...DEFAULTS, language: 'de' });
    // the console page reads it for its first paint, in German
    expect((await createPageServices(t.services).uiSettings(ada.user.id)).language).toBe('de');
    expect((await bob.client.get('/api/v1/auth/ui-settings')).body).toEqual(DEFAULTS);

    const theme = await ada.client.put('/api/v1/auth/ui-settings', { theme: 'green' });
    expect(theme.body).toEqual({ ...DEFAULTS, theme: 'green', language: 'de' });
    const browser = await ada.client.put('/api/v1/auth/ui-settings', { language: null });
    expect(browser.status, browser.text).toBe(200);
    expect((await ada.client.get('/api/v1/auth/ui-settings')).body).toEqual({ ...DEFAULTS, theme: 'green', language: null });
  });

  it('refuses unknown values, unknown fields and an empty body with a problem response, changing nothing', async () => {
    const { client } = await signedIn(acme.id, acmeHost);
    for (const body of [
      { theme: 'magenta' },
      { font: 'Comic Sans' },
      { light_version: 'yes' },
      { colour: 'red' },
      {},
      { language: 'fr' },
      { language: 'DE' },
    ]) {
      const r = await client.put('/api/v1/auth/ui-settings', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    expect((await client.get('/api/v1/auth/ui-settings')).body).toEqual(DEFAULTS);
  });

  it('answers 401 without a user', async () => {
    const anonymous = new ApiClient(t.baseUrl, acmeHost);
    expect((await anonymous.get('/api/v1/auth/ui-settings')).status).toBe(401);
    expect((await anonymous.put('/api/v1/auth/ui-settings', { theme: 'blue' })).status).toBe(401);
  });
});
