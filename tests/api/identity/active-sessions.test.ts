// The account's active sessions on both databases: each signed-in browser listed once (the
// current one marked), and 'sign out other sessions' ending every other one at once while the
// current one keeps working; another user's sessions are neither listed nor touched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';

describe.each(DB_KINDS)('active sessions on %s', (kind) => {
  let t: TestApp;
  let host: string;
  let user: Awaited<ReturnType<typeof seedUser>>;
  let colleague: Awaited<ReturnType<typeof seedUser>>;

  beforeAll(async () => {
    t = await startTestApp({ db: kind });
    const co = await seedCompany(t.services, { subdomain: 'acme' });
    host = `acme.${t.config.productDomain}`;
    user = await seedUser(t.services, { userType: 2, companyId: co.id });
    colleague = await seedUser(t.services, { userType: 2, companyId: co.id });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists each signed-in browser once and signs out all but the current one', async () => {
    const browser = (ua: string) => {
      const c = new ApiClient(t.baseUrl, host);
      return { c, ua, opts: { headers: { 'user-agent': ua } } };
    };
    const laptop = browser('Laptop Firefox');
    const phone = browser('Phone Safari');
    const other = new ApiClient(t.baseUrl, host);
    for (const b of [laptop, phone]) await b.c.post('/api/v1/auth/login', { email: user.email, password: user.password }, b.opts);
    await signIn(other, colleague);
    // a renewal keeps a session one entry
    expect((await phone.c.post('/api/v1/auth/refresh-token', undefined, phone.opts)).status).toBe(200);

    const list = await laptop.c.get('/api/v1/auth/sessions');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    expect(list.body.map((s: any) => [s.user_agent, s.current]).sort()).toEqual([
      ['Laptop Firefox', true],
      ['Phone Safari', false],
    ]);
    expect(list.body[0].host).toBe(host);

    const r = await laptop.c.post('/api/v1/auth/sessions/sign-out-others', undefined);
    expect(r.status).toBe(200);
    expect((await phone.c.get('/api/v1/auth/me')).status).toBe(401);
    expect((await phone.c.post('/api/v1/auth/refresh-token', undefined)).status).toBe(401);
    expect((await laptop.c.get('/api/v1/auth/me')).status).toBe(200);
    expect((await other.get('/api/v1/auth/me')).status).toBe(200);
    expect((await laptop.c.get('/api/v1/auth/sessions')).body).toHaveLength(1);
  });
});
