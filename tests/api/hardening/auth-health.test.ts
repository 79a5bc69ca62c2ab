// The health call tells an anonymous caller (and a company user) only whether the service is
// up; the version, uptime and database kind, which help an attacker pick exploits, are for
// super admins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';

describe('health call', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite' });
  });
  afterAll(async () => t?.close());

  it('answers only the status to an anonymous caller', async () => {
    const r = await t.client().get('/api/v1/health/');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok' });
    expect(r.text).not.toContain('0.1.0');
  });

  it('answers only the status to a company user', async () => {
    const co = await seedCompany(t.services, { subdomain: 'healthco' });
    const c = t.client();
    await signIn(c, await seedUser(t.services, { userType: 2, companyId: co.id }), 'healthco.localhost');
    expect((await c.get('/api/v1/health/', { host: 'healthco.localhost' })).body).toEqual({ status: 'ok' });
  });

  it('shows a super admin the version, database and uptime', async () => {
    const c = t.client();
    await signIn(c, await seedUser(t.services, { userType: 1 }));
    const r = await c.get('/api/v1/health/');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', version: '0.1.0', database: { kind: 'sqlite', status: 'up' } });
    expect(typeof r.body.uptime_seconds).toBe('number');
  });

  it('answers an anonymous caller 503 with only the status when the database is gone', async () => {
    const other = await startTestApp({ db: 'sqlite' });
    await other.services.db.close();
    try {
      // fetch, not the contract client: the 503 health answer is JSON, not a problem document
      const r = await fetch(`${other.baseUrl}/api/v1/health/`);
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual({ status: 'degraded' });
    } finally {
      await other.app.close();
    }
  });
});
