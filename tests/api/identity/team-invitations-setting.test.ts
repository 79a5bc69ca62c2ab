// The platform setting that lets company admins invite teammates (issue 25 item 5), on both
// databases: on by default where self-service signup is on (off where it is off), changed by a
// super admin only and audited; while off a company admin's invitation is refused with the
// reason and the invite policy says whom to ask; while on a company admin invites admins and
// viewers to their own company only, within Max Users, and the invitee signs in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { ADMIN_INVITES_OFF } from '../../../src/server/domain/users/invitations.ts';
import { waitFor } from '../../support/wait-for.ts';

const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe.each(DB_KINDS)('company admins inviting teammates on %s', (kind) => {
  let t: TestApp;
  let smtp: SmtpSink;
  let root: ApiClient;
  let adminClient: ApiClient;
  let viewerClient: ApiClient;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  const ACME = 'acme.localhost';

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ db: kind, env: { SMTP_URL: smtp.url } });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme', max_users: 4 });
    globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    const rootUser = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
    const admin = await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'ada@acme.example.com', fullName: 'Ada Admin' });
    const viewer = await seedUser(t.services, { userType: 3, companyId: acme.id, email: 'vic@acme.example.com', fullName: 'Vic Viewer' });
    root = t.client();
    await signIn(root, rootUser);
    adminClient = t.client();
    await signIn(adminClient, admin, ACME);
    viewerClient = t.client();
    await signIn(viewerClient, viewer, ACME);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const invite = (c: ApiClient, email: string, over: Record<string, unknown> = {}) =>
    c.post('/api/v1/admin/invitations', { email, name: 'Newcomer', company_id: acme.id, user_type: '3', ...over }, { host: ACME });
  const policy = async (c: ApiClient) => (await c.get('/api/v1/company/invite-policy', { host: ACME })).body;
  const setting = (c: ApiClient, on: boolean, host?: string) =>
    c.patch('/api/v1/admin/platform', { company_admins_invite: on }, host ? { host } : {});

  it('is on by default where signup is on, and only a super admin changes it, audited', async () => {
    const before = (await root.get('/api/v1/admin/platform')).body;
    expect(before).toMatchObject({ signup_enabled: true, company_admins_invite: true, company_admins_invite_source: 'default' });
    for (const c of [adminClient, viewerClient]) {
      const r = await setting(c, false, ACME);
      expect(r.status).toBe(403);
      expect(r.body.detail).toBe('Access denied. Super admin privileges required.');
    }
    const bad = await root.patch('/api/v1/admin/platform', { company_admins_invite: 'yes' });
    expect(bad.status).toBe(400);
    const off = await setting(root, false);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ company_admins_invite: false, company_admins_invite_source: 'set' });
    expect((await root.get('/api/v1/admin/platform')).body.company_admins_invite).toBe(false);
    const log = (await root.get('/api/v1/admin/audit?event=settings_update')).body.items;
    expect(log[0].details).toEqual({ company_admins_invite: { from: true, to: false } });
  });

  it("while off, a company admin's invitation is refused with the reason, and the policy says whom to ask", async () => {
    const r = await invite(adminClient, 'nope@example.com');
    expect(r.status).toBe(403);
    expect(r.body.detail).toBe(ADMIN_INVITES_OFF);
    expect((await root.get(`/api/v1/admin/invitations?company_id=${acme.id}`)).body).toEqual([]);
    expect(await policy(adminClient)).toEqual({
      may_invite: false,
      company_admins_invite: false,
      users: { used: 2, limit: 4 },
      ask: 'Only the platform administrator adds people here: ask them to invite your colleagues.',
    });
    expect((await policy(viewerClient)).ask).toBe('To add someone, ask the platform administrator to invite them.');
    // the super admin still invites
    expect((await root.get('/api/v1/company/invite-policy')).body).toMatchObject({ may_invite: true, users: null });
  });

  it('while on, a company admin invites viewers and admins to their own company only, and the invitee signs in', async () => {
    expect((await setting(root, true)).body.company_admins_invite).toBe(true);
    expect(await policy(adminClient)).toMatchObject({ may_invite: true, ask: null });
    expect((await policy(viewerClient)).ask).toBe('To add someone, ask a company admin (Ada Admin) to invite them.');
    // a viewer never invites
    const v = await invite(viewerClient, 'v@example.com');
    expect(v.status).toBe(403);
    expect(v.body.detail).toBe('You do not have permission to create users.');
    // another company named in the body: the invitation is for the admin's own company
    const r = await invite(adminClient, 'Tess@Example.com', { company_id: globex.id, name: 'Tess Teammate', user_type: '2' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      email: 'tess@example.com',
      company_id: acme.id,
      company_name: 'Acme',
      user_type: '2',
      status: 'invited',
    });
    expect((await root.get(`/api/v1/admin/invitations?company_id=${globex.id}`)).body).toEqual([]);
    expect((await invite(adminClient, 'boss@example.com', { user_type: '1' })).status).toBe(400);
    const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes('tess@example.com')));
    const token = unQp(mail.raw).match(/http:\/\/acme\.localhost:\d+\/invite\?token=([A-Za-z0-9_-]{43})/)![1];
    const anon = t.client();
    expect((await anon.post('/api/v1/auth/invitation/accept', { token, password: 'Tess-chooses-1' }, { host: ACME })).status).toBe(201);
    const login = await anon.post('/api/v1/auth/login', { email: 'tess@example.com', password: 'Tess-chooses-1' }, { host: ACME });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ role: 'customer_admin', company_id: acme.id, full_name: 'Tess Teammate' });
    const audit = (await root.get(`/api/v1/admin/audit?tenant_id=${acme.id}&limit=200`)).body.items;
    expect(
      audit.some((e: any) => e.event === 'user_update' && e.details.change === 'invitation_sent' && e.details.email === 'tess@example.com'),
    ).toBe(true);
  });

  it("is refused beyond the company's Max Users (pending invitations count)", async () => {
    // Acme: Ada, Vic, Tess = 3 of 4; one pending invitation makes 4
    const last = await invite(adminClient, 'last@example.com');
    expect(last.status).toBe(201);
    const over = await invite(adminClient, 'over@example.com');
    expect(over.status).toBe(422);
    expect(over.body.detail).toBe(
      'Acme already has its maximum of 4 users (pending invitations count). Ask the platform administrator to raise Max Users to invite more.',
    );
    expect(await policy(adminClient)).toMatchObject({
      may_invite: false,
      users: { used: 4, limit: 4 },
      ask: 'Acme has 4 of 4 users (pending invitations count): ask the platform administrator to raise Max Users to invite more.',
    });
    // revoking the pending one makes room again
    expect((await adminClient.delete(`/api/v1/admin/invitations/${last.body.id}`, { host: ACME })).status).toBe(200);
    expect((await invite(adminClient, 'over@example.com')).status).toBe(201);
  });

  it("another company's invitation is not found for a company admin", async () => {
    const g = await root.post('/api/v1/admin/invitations', { email: 'g@example.com', name: 'G', company_id: globex.id, user_type: '3' });
    expect(g.status).toBe(201);
    expect((await adminClient.post(`/api/v1/admin/invitations/${g.body.id}/resend`, undefined, { host: ACME })).status).toBe(404);
    expect((await adminClient.delete(`/api/v1/admin/invitations/${g.body.id}`, { host: ACME })).status).toBe(404);
    expect((await root.get(`/api/v1/admin/invitations?company_id=${globex.id}`)).body.map((i: any) => i.email)).toEqual(['g@example.com']);
  });
});

describe.each(DB_KINDS)('without self-service signup on %s', (kind) => {
  it("company admins do not invite by default (the spec's role table)", async () => {
    const t = await startTestApp({ db: kind, env: { SIGNUP_ENABLED: 'false' } });
    try {
      const co = await seedCompany(t.services, { subdomain: 'quiet' });
      const admin = await seedUser(t.services, { userType: 2, companyId: co.id });
      const rootUser = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
      const root = t.client();
      await signIn(root, rootUser);
      expect((await root.get('/api/v1/admin/platform')).body).toMatchObject({
        signup_enabled: false,
        company_admins_invite: false,
        company_admins_invite_source: 'default',
      });
      const c = t.client();
      await signIn(c, admin, 'quiet.localhost');
      const r = await c.post(
        '/api/v1/admin/invitations',
        { email: 'x@example.com', name: 'X', user_type: '3' },
        { host: 'quiet.localhost' },
      );
      expect(r.status).toBe(403);
      expect(r.body.detail).toBe(ADMIN_INVITES_OFF);
    } finally {
      await t.close();
    }
  });
});
