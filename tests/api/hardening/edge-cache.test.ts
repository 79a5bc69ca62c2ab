// API answers about a signed-in user or company are never stored by a browser or a proxy; the
// public status documents keep their CDN-friendly caching.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';

describe('Cache-Control of API answers', () => {
  let t: TestApp;
  let boss: Awaited<ReturnType<typeof seedUser>>;
  let root: Awaited<ReturnType<typeof seedUser>>;
  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite' });
    const acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    boss = await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'boss@acme.example.com' });
    root = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
  });
  afterAll(async () => t?.close());

  it('marks every authenticated answer, and every error, no-store', async () => {
    const c = t.client();
    const login = await signIn(c, boss, 'acme.localhost');
    expect(login.headers.get('cache-control')).toBe('no-store');
    for (const path of [
      '/api/v1/monitors',
      '/api/v1/company/fetch-company',
      '/api/v1/notifications/',
      '/api/v1/incidents/recent',
      '/api/v1/monitors/summary',
      '/api/v1/nope',
    ]) {
      const r = await c.get(path, { host: 'acme.localhost' });
      expect(r.headers.get('cache-control'), `${path} ${r.status}`).toBe('no-store');
    }
    const admin = t.client();
    await signIn(admin, root);
    for (const path of ['/api/v1/admin/companies', '/api/v1/admin/users', '/api/v1/admin/dashboard-summary']) {
      expect((await admin.get(path)).headers.get('cache-control'), path).toBe('no-store');
    }
    expect((await t.client().get('/api/v1/monitors', { host: 'acme.localhost' })).headers.get('cache-control')).toBe('no-store');
  });

  it('keeps the public status documents cacheable', async () => {
    const c = t.client();
    const v1 = await c.get('/api/v1/public/public-status/acme', { host: 'acme.localhost' });
    expect(v1.status).toBe(200);
    expect(v1.headers.get('cache-control')).toMatch(/^public/);
    const v2 = await c.get('/api/v2/summary.json', { host: 'acme.localhost' });
    expect(v2.headers.get('cache-control')).toMatch(/^public/);
  });
});
