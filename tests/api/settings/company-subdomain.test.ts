// A company admin moves the company to another subdomain (issue 25 item 4), on both databases:
// the rules of signup (valid label, not reserved, not taken) with the field named, 404 for
// another company and 403 for viewers; every session of the company ends and the admin is handed
// over to the new address signed in; the old address leads nowhere; audited as tenant_update.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { rawRequest, startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { SUBDOMAIN_TAKEN } from '../../../src/server/domain/auth/signup.ts';

describe.each(DB_KINDS)('changing the subdomain on %s', (kind) => {
  let t: TestApp;
  let root: ApiClient;
  let admin: ApiClient;
  let viewer: ApiClient;
  let adminUser: Awaited<ReturnType<typeof seedUser>>;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };

  beforeAll(async () => {
    t = await startTestApp({ db: kind });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    const rootUser = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
    adminUser = await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'ada@acme.example.com' });
    const v = await seedUser(t.services, { userType: 3, companyId: acme.id });
    root = t.client();
    await signIn(root, rootUser);
    admin = t.client();
    await signIn(admin, adminUser, 'acme.localhost');
    viewer = t.client();
    await signIn(viewer, v, 'acme.localhost');
  });
  afterAll(async () => {
    await t?.close();
  });

  const move = (c: ApiClient, id: string, subdomain: unknown, host = 'acme.localhost') =>
    c.put(`/api/v1/companies/${id}/subdomain`, { subdomain }, { host });

  it('refuses what signup refuses, naming the field, and what the caller may not do', async () => {
    const reserved = await move(admin, acme.id, 'admin');
    expect(reserved.status).toBe(400);
    expect(reserved.body.errors).toEqual({ subdomain: "The subdomain 'admin' is reserved. Please choose another." });
    expect((await move(admin, acme.id, 'bad_label')).body.errors.subdomain).toMatch(/^Subdomain may contain only lowercase letters/);
    expect((await move(admin, acme.id, '')).body.errors).toEqual({ subdomain: 'Subdomain is required.' });
    const taken = await move(admin, acme.id, 'Globex');
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ detail: SUBDOMAIN_TAKEN, errors: { subdomain: SUBDOMAIN_TAKEN } });
    expect((await move(admin, globex.id, 'globex-two')).status).toBe(404);
    const v = await move(viewer, acme.id, 'acme-two');
    expect(v.status).toBe(403);
    const same = await move(admin, acme.id, 'acme');
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ redirect_to: null, message: 'The subdomain is unchanged.' });
    expect((await admin.get('/api/v1/auth/me', { host: 'acme.localhost' })).status).toBe(200);
  });

  it('moves the company, ends its sessions, hands the admin over to the new address, and frees the old one', async () => {
    const r = await move(admin, acme.id, ' Acme-Labs ');
    expect(r.status).toBe(200);
    expect(r.body.company.subdomain).toBe('acme-labs');
    expect(r.body.address).toBe(`http://acme-labs.localhost:${t.port}`);
    expect(r.body.message).toBe(
      `The company's address is now http://acme-labs.localhost:${t.port}. acme no longer leads to it. Everyone signs in again there.`,
    );
    // the old host's sessions are over, the viewer's too
    expect((await admin.get('/api/v1/auth/me', { host: 'acme.localhost' })).status).toBe(401);
    expect((await viewer.get('/api/v1/auth/me', { host: 'acme-labs.localhost' })).status).toBe(401);
    // the handoff link signs the admin in on the new address, on the settings screen
    const link = new URL(r.body.redirect_to);
    expect(link.origin).toBe(`http://acme-labs.localhost:${t.port}`);
    const onNew = { host: `acme-labs.localhost:${t.port}`, 'sec-fetch-site': 'same-site' };
    const landed = await rawRequest(`${t.baseUrl}${link.pathname}${link.search}`, 'GET', onNew);
    expect(landed.status).toBe(303);
    expect(landed.headers.get('location')).toBe('/settings/company');
    const cookie = landed.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect(JSON.parse((await rawRequest(`${t.baseUrl}/api/v1/auth/me`, 'GET', { ...onNew, cookie })).text).email).toBe(adminUser.email);
    // the old address leads nowhere; the new one is the status page's
    expect((await t.client().get('/api/v1/public/public-status/acme')).status).toBe(404);
    expect((await t.client().get('/api/v1/public/public-status/acme-labs')).status).toBe(200);
    expect(
      (await t.client().post('/api/v1/auth/login', { email: adminUser.email, password: adminUser.password }, { host: 'acme.localhost' }))
        .status,
    ).not.toBe(200);
    expect(
      (
        await t
          .client()
          .post('/api/v1/auth/login', { email: adminUser.email, password: adminUser.password }, { host: 'acme-labs.localhost' })
      ).status,
    ).toBe(200);
    // the free name can be checked and taken by someone else
    expect((await t.client().get('/api/v1/auth/subdomain-availability?subdomain=acme')).body.available).toBe(true);
    const audit = (await root.get(`/api/v1/admin/audit?tenant_id=${acme.id}&event=tenant_update`)).body.items;
    expect(audit[0].details).toEqual({ company_id: acme.id, changed: ['subdomain'], subdomain: { from: 'acme', to: 'acme-labs' } });
  });
});
