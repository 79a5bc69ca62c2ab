// The first-steps card of a new company's dashboard (issue 13 item 8): GET
// /api/v1/company/first-steps answers which steps the company has done, worked out from its data
// (a monitor, a public monitor, an alert channel, a second user), and where its status page is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/server/domain/ids.ts';
import { seedMonitor } from '../public/fixtures.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

describe.each(DB_KINDS)('first steps on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let company: { id: string; subdomain: string };
  let other: { id: string; subdomain: string };
  const tenantClient = (c: { subdomain: string }) => new ApiClient(t.baseUrl, `${c.subdomain}.${t.config.productDomain}`);

  beforeAll(async () => {
    t = await startTestApp({ db: kind });
    company = await seedCompany(t.services);
    other = await seedCompany(t.services);
    admin = tenantClient(company);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: company.id }));
    // another company that has done everything: nothing of it counts for ours
    await seedMonitor(t.services.db, other.id, Date.now(), { isPublic: true });
    await seedUser(t.services, { userType: 3, companyId: other.id });
    await seedUser(t.services, { userType: 3, companyId: other.id });
    await addChannel(other.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function addChannel(companyId: string) {
    const now = Date.now();
    await t.services.db.k
      .insertInto('alert_channels')
      .values({
        id: newId(),
        company_id: companyId,
        name: 'Ops mail',
        type: 'email',
        config: JSON.stringify({ to: ['ops@example.com'] }),
        secret: null,
        events: JSON.stringify(['incident.opened']),
        monitor_ids: null,
        min_severity: 'low',
        enabled: true,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  it("ticks each step as the company's own data shows it done", async () => {
    const steps = async () => {
      const r = await admin.get('/api/v1/company/first-steps');
      expect(r.status).toBe(200);
      return r.body as { steps: Record<string, boolean>; status_page_url: string };
    };
    const fresh = await steps();
    expect(fresh.steps).toEqual({ monitor: false, status_page: false, alerts: false, team: false });
    // on the company host, at the port this request came in on
    expect(fresh.status_page_url).toBe(`http://${company.subdomain}.${t.config.productDomain}:${new URL(t.baseUrl).port}/`);

    await seedMonitor(t.services.db, company.id, Date.now(), { isPublic: false });
    expect((await steps()).steps).toEqual({ monitor: true, status_page: false, alerts: false, team: false });
    await seedMonitor(t.services.db, company.id, Date.now(), { isPublic: true });
    await addChannel(company.id);
    expect((await steps()).steps).toEqual({ monitor: true, status_page: true, alerts: true, team: false });
    await seedUser(t.services, { userType: 3, companyId: company.id });
    expect((await steps()).steps).toEqual({ monitor: true, status_page: true, alerts: true, team: true });
  });

  it('is for company admins: viewers are refused, and a super admin has no company of their own', async () => {
    const viewer = tenantClient(company);
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: company.id }));
    expect((await viewer.get('/api/v1/company/first-steps')).status).toBe(403);
    const root = t.client();
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    expect((await root.get('/api/v1/company/first-steps')).status).toBe(404);
    expect((await t.client().get('/api/v1/company/first-steps')).status).toBe(401);
  });
});
