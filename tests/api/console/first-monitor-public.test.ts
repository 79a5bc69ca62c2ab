// Issue 25 item 8: a company's first monitor reaches its status page. Left out, `is_public` is
// true while the company's page shows no monitor (none public and not archived) and false once
// one does; an explicit value always wins. Through the real HTTP server on both databases, with
// the public status call as a visitor reads it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

describe.each(DB_KINDS)("a company's first monitor on %s", (kind) => {
  let t: TestApp;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  let admin: ApiClient;
  let root: ApiClient;
  const body = (name: string, over: Record<string, unknown> = {}) => ({
    name,
    type: 'http',
    url: 'http://127.0.0.1:9/',
    interval_seconds: 60,
    ...over,
  });
  const publicNames = async (c: { subdomain: string }) => {
    const r = await t.client().get(`/api/v1/public/public-status/${c.subdomain}`);
    expect(r.status).toBe(200);
    return (r.body.monitors as Array<{ monitor_name: string }>).map((m) => m.monitor_name);
  };

  beforeAll(async () => {
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    acme = await seedCompany(t.services, { name: 'Acme' });
    globex = await seedCompany(t.services, { name: 'Globex' });
    admin = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    root = t.client();
    await signIn(root, await seedUser(t.services, { userType: 1 }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is public when nothing says otherwise and the page shows no monitor; later ones stay private', async () => {
    const first = await admin.post('/api/v1/monitors', body('Website'));
    expect(first.status, first.text).toBe(201);
    expect(first.body.is_public).toBe(true);
    const second = await admin.post('/api/v1/monitors', body('Internal API'));
    expect(second.body.is_public).toBe(false);
    // what a visitor of the page reads (read once: the page is served from a snapshot cache)
    expect(await publicNames(acme)).toEqual(['Website']);
    // an explicit choice wins both ways
    expect((await admin.post('/api/v1/monitors', body('Shop', { is_public: true }))).body.is_public).toBe(true);
    expect((await admin.post('/api/v1/monitors', body('Cron', { is_public: false }))).body.is_public).toBe(false);

    // once the page shows nothing again (its public monitors archived), the next one goes there
    const listed = await admin.get('/api/v1/monitors?is_public=true');
    for (const m of listed.body as Array<{ id: string }>) expect((await admin.post(`/api/v1/monitors/${m.id}/archive`)).status).toBe(200);
    expect((await admin.get('/api/v1/monitors?is_public=true')).body).toEqual([]);
    const again = await admin.post('/api/v1/monitors', body('New website'));
    expect(again.body.is_public).toBe(true);
  });

  it("follows the chosen company's page when a super admin creates it, and a first private choice leaves the default on", async () => {
    const privateFirst = await root.post('/api/v1/monitors', body('Globex private', { company_id: globex.id, is_public: false }));
    expect(privateFirst.body.is_public).toBe(false);
    const first = await root.post('/api/v1/monitors', body('Globex site', { company_id: globex.id }));
    expect(first.status, first.text).toBe(201);
    expect(first.body.is_public).toBe(true);
    expect((await root.post('/api/v1/monitors', body('Globex API', { company_id: globex.id }))).body.is_public).toBe(false);
    expect(await publicNames(globex)).toEqual(['Globex site']);
  });
});
