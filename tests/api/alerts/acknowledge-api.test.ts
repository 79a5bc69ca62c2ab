// Acknowledging incidents and the escalation policy over HTTP, on both databases, with the role
// table held on the server: company admins and super admins acknowledge, viewers get 403,
// another company's incident is 404; a second acknowledgement is 409 naming who did it; the
// acknowledgement is shown on the incident and in the list and goes out as
// `incident.acknowledged` to the channels that take it. A policy cannot name another company's
// channels or users, and viewers can neither read nor write it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

describe.each(DB_KINDS)('acknowledge and escalation policy API on %s', (kind) => {
  let t: TestApp;
  let clock = Date.UTC(2027, 2, 1, 9, 0, 0);
  let admin: ApiClient;
  let viewer: ApiClient;
  let otherAdmin: ApiClient;
  let root: ApiClient;
  let adminUser: Awaited<ReturnType<typeof seedUser>>;
  let otherUser: Awaited<ReturnType<typeof seedUser>>;
  let acmeId = '';

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    const acme = await seedCompany(t.services, { plan: 'enterprise' });
    const globex = await seedCompany(t.services, { plan: 'enterprise' });
    acmeId = acme.id;
    admin = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    viewer = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    otherAdmin = new ApiClient(t.baseUrl, `${globex.subdomain}.${t.config.productDomain}`);
    root = new ApiClient(t.baseUrl, t.config.productDomain);
    adminUser = await seedUser(t.services, { userType: 2, companyId: acme.id, fullName: 'Ada Admin' });
    otherUser = await seedUser(t.services, { userType: 2, companyId: globex.id, fullName: 'Gus Globex' });
    await signIn(admin, adminUser);
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }));
    await signIn(otherAdmin, otherUser);
    await signIn(root, await seedUser(t.services, { userType: 1 }));
  });
  afterAll(async () => t?.close());

  const openIncident = async (title: string) => {
    const r = await admin.post('/api/v1/incidents', { title, severity: 'high', message: 'Looking into it.' });
    expect(r.status).toBe(201);
    return r.body.id as string;
  };

  it('records who and when, shows it on the incident and the list, and refuses a second acknowledgement with 409', async () => {
    const hook = await admin.post('/api/v1/alert-channels', {
      name: 'Ack hook',
      type: 'webhook',
      config: { url: 'http://127.0.0.1:9/ack' },
      events: ['incident.acknowledged'],
    });
    expect(hook.status).toBe(201);
    const id = await openIncident('Checkout errors');
    expect((await admin.get(`/api/v1/incidents/${id}`)).body).toMatchObject({ acknowledged_at: null, acknowledged_by: null });

    clock += 60_000;
    const ack = await admin.post(`/api/v1/incidents/${id}/acknowledge`);
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({
      acknowledged_at: new Date(clock).toISOString(),
      acknowledged_by: { id: adminUser.id, name: 'Ada Admin' },
      acknowledged_via: 'console',
    });
    const listed = (await admin.get('/api/v1/incidents')).body.find((i: { id: string }) => i.id === id);
    expect(listed.acknowledged_by).toEqual({ id: adminUser.id, name: 'Ada Admin' });

    const again = await admin.post(`/api/v1/incidents/${id}/acknowledge`);
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain('already acknowledged by Ada Admin');

    const sent = (await admin.get('/api/v1/alert-deliveries')).body.filter((d: { channel_id: string }) => d.channel_id === hook.body.id);
    expect(sent.map((d: { event: string }) => d.event)).toEqual(['incident.acknowledged']);
  });

  it('holds the role table: viewers 403, another company 404, super admins may; resolved incidents 409', async () => {
    const id = await openIncident('Slow search');
    expect((await viewer.post(`/api/v1/incidents/${id}/acknowledge`)).status).toBe(403);
    expect((await otherAdmin.post(`/api/v1/incidents/${id}/acknowledge`)).status).toBe(404);
    expect((await admin.get(`/api/v1/incidents/${id}`)).body.acknowledged_at).toBeNull();
    const byRoot = await root.post(`/api/v1/incidents/${id}/acknowledge`);
    expect(byRoot.status).toBe(200);
    expect(byRoot.body.acknowledged_by.id).not.toBe(adminUser.id);

    const done = await openIncident('Old issue');
    expect((await admin.post(`/api/v1/incidents/${done}/updates`, { status: 'resolved', message: 'Fixed.' })).status).toBe(201);
    const late = await admin.post(`/api/v1/incidents/${done}/acknowledge`);
    expect(late.status).toBe(409);
    expect(late.body.detail).toMatch(/resolved/);
    expect((await admin.post('/api/v1/incidents/no-such-incident/acknowledge')).status).toBe(404);
  });

  it("saves an escalation policy of the own company and refuses other companies' channels and users", async () => {
    const slack = await admin.post('/api/v1/alert-channels', {
      name: 'Ops Slack',
      type: 'slack',
      config: { url: 'http://127.0.0.1:9/slack' },
      events: ['incident.opened'],
    });
    const foreign = await otherAdmin.post('/api/v1/alert-channels', {
      name: 'Globex hook',
      type: 'webhook',
      config: { url: 'http://127.0.0.1:9/globex' },
      events: ['incident.opened'],
    });
    const initial = (await admin.get('/api/v1/escalation-policy')).body;
    expect(initial).toMatchObject({ company_id: acmeId, steps: [] });
    expect(initial.people.map((p: { name: string }) => p.name)).toContain('Ada Admin');
    expect(initial.people.map((p: { name: string }) => p.name)).not.toContain('Gus Globex');
    const steps = [
      { after_minutes: 0, channel_ids: [slack.body.id], user_ids: [] },
      { after_minutes: 10, channel_ids: [], user_ids: [adminUser.id] },
    ];
    const saved = await admin.put('/api/v1/escalation-policy', { steps });
    expect(saved.status).toBe(200);
    expect(saved.body.steps).toEqual(steps);
    expect((await admin.get('/api/v1/escalation-policy')).body.steps).toEqual(steps);

    const withForeignChannel = await admin.put('/api/v1/escalation-policy', {
      steps: [{ after_minutes: 0, channel_ids: [foreign.body.id], user_ids: [] }],
    });
    expect(withForeignChannel.status).toBe(400);
    expect(withForeignChannel.body.detail).toBe('Step 1: alert channel not found');
    const withForeignUser = await admin.put('/api/v1/escalation-policy', {
      steps: [{ after_minutes: 5, channel_ids: [], user_ids: [otherUser.id] }],
    });
    expect(withForeignUser.status).toBe(400);
    expect(withForeignUser.body.detail).toBe('Step 1: user not found');
    const backwards = await admin.put('/api/v1/escalation-policy', {
      steps: [
        { after_minutes: 10, channel_ids: [slack.body.id], user_ids: [] },
        { after_minutes: 5, channel_ids: [slack.body.id], user_ids: [] },
      ],
    });
    expect(backwards.status).toBe(400);
    const empty = await admin.put('/api/v1/escalation-policy', { steps: [{ after_minutes: 5, channel_ids: [], user_ids: [] }] });
    expect(empty.status).toBe(400);
    expect((await admin.get('/api/v1/escalation-policy')).body.steps).toEqual(steps); // nothing refused was saved

    expect((await viewer.get('/api/v1/escalation-policy')).status).toBe(403);
    expect((await viewer.put('/api/v1/escalation-policy', { steps: [] })).status).toBe(403);
    // The other company sees its own (empty) policy, never Acme's.
    expect((await otherAdmin.get('/api/v1/escalation-policy')).body.steps).toEqual([]);
    // A super admin names the company.
    expect((await root.get('/api/v1/escalation-policy')).status).toBe(400);
    expect((await root.get(`/api/v1/escalation-policy?tenant=${acmeId}`)).body.steps).toEqual(steps);
  });

  it('keeps a phone (international format only) and a personal webhook (checked like a channel URL, secret shown once) with the preferences', async () => {
    const bad = await admin.put('/api/v1/notifications/preferences', { phone: '0170 1234' });
    expect(bad.status).toBe(400);
    const ok = await admin.put('/api/v1/notifications/preferences', { sms_enabled: true, phone: '+4917012345678' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ sms_enabled: true, phone: '+4917012345678' });
    expect((await admin.get('/api/v1/notifications/preferences')).body.phone).toBe('+4917012345678');
    expect((await admin.put('/api/v1/notifications/preferences', { phone: null })).body.phone).toBeNull();

    const refused = await admin.put('/api/v1/notifications/preferences', {
      webhook_url: 'https://me:pw@hooks.example.com/x',
      webhook_enabled: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/user name or password/);
    expect((await admin.get('/api/v1/notifications/preferences')).body).toMatchObject({ webhook_url: null, webhook_enabled: false });
    const hook = await admin.put('/api/v1/notifications/preferences', { webhook_url: 'https://hooks.example.com/ada' });
    expect(hook.body.webhook_secret).toMatch(/^whsec_/);
    const read = (await admin.get('/api/v1/notifications/preferences')).body;
    expect(read.webhook_url).toBe('https://hooks.example.com/ada');
    expect(read).not.toHaveProperty('webhook_secret');
  });
});
