// The Team screen's calls on both databases: the role table on users (company admins rename,
// switch admin <-> viewer, deactivate and reactivate their own company's users and nothing
// more; viewers only read), deactivation ending sessions at once, the last sign-in, and
// invitations mailed through a real SMTP sink on loopback (link, single use, expiry, revoke,
// resend killing the old link, throttled resends).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import {
  NO_COMPANY_MOVE,
  NO_SELF_DEACTIVATION,
  NO_SELF_DEMOTION,
  NO_SUPER_ADMIN_PROMOTION,
  NOT_YOUR_EMAIL_TO_CHANGE,
} from '../../../src/server/domain/users/admin.ts';
import {
  COMPANY_INACTIVE,
  INVITATION_EXPIRED,
  MAIL_FAILED,
  INVITATION_INVALID,
  INVITATION_USED,
} from '../../../src/server/domain/users/invitations.ts';
import { SUPER_ADMIN_REQUIRED } from '../../../src/server/domain/errors.ts';
import { waitFor } from '../../support/wait-for.ts';

/** Quoted-printable soft line breaks and =3D undone, enough to read a link. */
const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
const DAY = 24 * 60 * 60 * 1000;

describe.each(DB_KINDS)('team on %s', (kind) => {
  let t: TestApp;
  let smtp: SmtpSink;
  let clock = Date.parse('2026-03-01T10:00:00Z');
  let root: ApiClient;
  let rootUser: Awaited<ReturnType<typeof seedUser>>;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  let admin: Awaited<ReturnType<typeof seedUser>>;
  let adminClient: ApiClient;
  let viewer: Awaited<ReturnType<typeof seedUser>>;
  let viewerClient: ApiClient;
  let globexUser: Awaited<ReturnType<typeof seedUser>>;
  const acmeHost = 'acme.localhost';

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ db: kind, env: { SMTP_URL: smtp.url }, now: () => clock });
    rootUser = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    admin = await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'admin@acme.example.com', fullName: 'Ada Admin' });
    viewer = await seedUser(t.services, { userType: 3, companyId: acme.id, email: 'viewer@acme.example.com', fullName: 'Vic Viewer' });
    globexUser = await seedUser(t.services, { userType: 3, companyId: globex.id, email: 'g@globex.example.com' });
    root = t.client();
    await signIn(root, rootUser);
    adminClient = t.client();
    await signIn(adminClient, admin, acmeHost);
    viewerClient = t.client();
    await signIn(viewerClient, viewer, acmeHost);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const put = (c: ApiClient, id: string, body: Record<string, unknown>) => c.put(`/api/v1/admin/users/${id}`, body, { host: acmeHost });
  const usersOf = async (c: ApiClient, host = acmeHost) => (await c.get('/api/v1/admin/users', { host })).body as any[];

  describe('users and the role table', () => {
    it("lists only the own company's users, with the last sign-in, to its admin and its viewer", async () => {
      for (const c of [adminClient, viewerClient]) {
        const r = await c.get('/api/v1/admin/users?company_id=' + globex.id, { host: acmeHost });
        expect(r.status).toBe(200);
        expect(r.body.map((u: any) => u.email).sort()).toEqual(['admin@acme.example.com', 'viewer@acme.example.com']);
        const a = r.body.find((u: any) => u.id === admin.id);
        expect(a).toMatchObject({
          full_name: 'Ada Admin',
          user_type: '2',
          is_active: true,
          last_sign_in_at: new Date(clock).toISOString(),
        });
        expect(JSON.stringify(r.body)).not.toContain('argon2');
      }
      const fresh = await seedUser(t.services, { userType: 3, companyId: acme.id, email: 'never@acme.example.com' });
      expect((await usersOf(adminClient)).find((u) => u.id === fresh.id).last_sign_in_at).toBeNull();
      // super admins: every company, or the one they choose
      expect((await usersOf(root, 'localhost')).some((u) => u.id === globexUser.id)).toBe(true);
      const one = (await root.get(`/api/v1/admin/users?company_id=${globex.id}`)).body;
      expect(one.map((u: any) => u.id)).toEqual([globexUser.id]);
    });

    it('records the time of each sign-in', async () => {
      clock += 60_000;
      await signIn(t.client(), viewer, acmeHost);
      expect((await usersOf(adminClient)).find((u) => u.id === viewer.id).last_sign_in_at).toBe(new Date(clock).toISOString());
    });

    it('lets the company admin rename and switch admin <-> viewer', async () => {
      const u = await seedUser(t.services, { userType: 3, companyId: acme.id, email: 'bob@acme.example.com', fullName: 'Bob' });
      const renamed = await put(adminClient, u.id, { name: 'Robert', email: u.email, user_type: '3' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ full_name: 'Robert', user_type: '3', company_id: acme.id, is_active: true });
      const promoted = await put(adminClient, u.id, { name: 'Robert', email: u.email, user_type: '2', company_id: acme.id });
      expect(promoted.status).toBe(200);
      expect(promoted.body.user_type).toBe('2');
      const c = t.client();
      await signIn(c, u, acmeHost);
      expect((await c.get('/api/v1/auth/me', { host: acmeHost })).body.role).toBe('customer_admin');
      expect((await put(adminClient, u.id, { name: 'Robert', email: u.email, user_type: 3 })).body.user_type).toBe('3');
    });

    it("deactivating ends the user's sessions at once; they cannot sign in until reactivated", async () => {
      const u = await seedUser(t.services, { userType: 3, companyId: acme.id, email: 'carol@acme.example.com', fullName: 'Carol' });
      const c = t.client();
      await signIn(c, u, acmeHost);
      expect((await c.get('/api/v1/auth/me', { host: acmeHost })).status).toBe(200);
      const off = await put(adminClient, u.id, { name: 'Carol', email: u.email, user_type: '3', is_active: false });
      expect(off.status).toBe(200);
      expect(off.body.is_active).toBe(false);
      expect((await c.get('/api/v1/auth/me', { host: acmeHost })).status).toBe(401);
      expect((await c.post('/api/v1/auth/refresh-token', undefined, { host: acmeHost })).status).toBe(401);
      const again = await t.client().post('/api/v1/auth/login', { email: u.email, password: u.password }, { host: acmeHost });
      expect(again.status).toBe(403);
      expect(again.body.detail).toBe('This account is disabled. Please contact your administrator.');
      expect((await put(adminClient, u.id, { name: 'Carol', email: u.email, user_type: '3', is_active: true })).body.is_active).toBe(true);
      expect((await t.client().post('/api/v1/auth/login', { email: u.email, password: u.password }, { host: acmeHost })).status).toBe(200);
    });

    it('refuses the company admin what the role table does not give, changing nothing', async () => {
      const before = await usersOf(root, 'localhost');
      const cases: Array<[string, string, unknown, number, string]> = [
        [
          'POST',
          '/api/v1/admin/users',
          { name: 'New', email: 'new@acme.example.com', password: 'Good-password-1', user_type: '3', company_id: acme.id },
          403,
          SUPER_ADMIN_REQUIRED,
        ],
        ['DELETE', `/api/v1/admin/users/${viewer.id}`, undefined, 403, SUPER_ADMIN_REQUIRED],
        ['POST', `/api/v1/admin/users/${viewer.id}/reset-password`, { new_password: 'Hijacked-pass-1' }, 403, SUPER_ADMIN_REQUIRED],
        ['PUT', `/api/v1/admin/users/${viewer.id}`, { name: 'V', email: viewer.email, user_type: '1' }, 403, NO_SUPER_ADMIN_PROMOTION],
        [
          'PUT',
          `/api/v1/admin/users/${admin.id}`,
          { name: 'Me', email: admin.email, user_type: 1, company_id: null },
          403,
          NO_SUPER_ADMIN_PROMOTION,
        ],
        [
          'PUT',
          `/api/v1/admin/users/${viewer.id}`,
          { name: 'V', email: viewer.email, user_type: '3', company_id: globex.id },
          403,
          NO_COMPANY_MOVE,
        ],
        [
          'PUT',
          `/api/v1/admin/users/${viewer.id}`,
          { name: 'V', email: 'mine@evil.example.com', user_type: '3' },
          403,
          NOT_YOUR_EMAIL_TO_CHANGE,
        ],
        [
          'PUT',
          `/api/v1/admin/users/${admin.id}`,
          { name: 'Me', email: admin.email, user_type: '2', is_active: false },
          403,
          NO_SELF_DEACTIVATION,
        ],
        ['PUT', `/api/v1/admin/users/${admin.id}`, { name: 'Me', email: admin.email, user_type: '3' }, 403, NO_SELF_DEMOTION],
        [
          'PUT',
          `/api/v1/admin/users/${globexUser.id}`,
          { name: 'Owned', email: globexUser.email, user_type: '3', is_active: false },
          404,
          'User not found',
        ],
        // inviting depends on the platform setting: team-invitations-setting.test.ts
      ];
      for (const [method, path, body, status, detail] of cases) {
        for (const headers of [{}, { 'x-role': 'super_admin', 'x-tenant-id': globex.id }] as Array<Record<string, string>>) {
          const r = await adminClient.request(method, path, { host: acmeHost, body, headers });
          expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
          expect(r.body.detail).toBe(detail);
        }
      }
      expect(await usersOf(root, 'localhost')).toEqual(before);
    });

    it('refuses the viewer every write', async () => {
      const before = await usersOf(root, 'localhost');
      const cases: Array<[string, string, unknown?]> = [
        ['PUT', `/api/v1/admin/users/${viewer.id}`, { name: 'Renamed', email: viewer.email, user_type: '3' }],
        ['PUT', `/api/v1/admin/users/${admin.id}`, { name: 'Ada', email: admin.email, user_type: '2', is_active: false }],
        ['PUT', `/api/v1/admin/users/${viewer.id}`, { name: 'Vic', email: viewer.email, user_type: '2' }],
        [
          'POST',
          '/api/v1/admin/users',
          { name: 'New', email: 'new2@acme.example.com', password: 'Good-password-1', user_type: '3', company_id: acme.id },
        ],
        ['DELETE', `/api/v1/admin/users/${admin.id}`],
        ['POST', '/api/v1/admin/invitations', { email: 'y@acme.example.com', name: 'Y', company_id: acme.id, user_type: '3' }],
      ];
      for (const [method, path, body] of cases) {
        const r = await viewerClient.request(method, path, { host: acmeHost, body });
        expect(r.status, `${method} ${path}`).toBe(403);
        expect(r.body.detail).toMatch(/permission|Super admin/);
      }
      expect(await usersOf(root, 'localhost')).toEqual(before);
    });
  });

  describe('invitations', () => {
    const mailTo = (email: string, n = 1) =>
      waitFor(() => {
        const got = smtp.mails.filter((m) => m.to.includes(email));
        return got.length >= n ? got[n - 1] : undefined;
      });
    const tokenIn = (raw: string) => unQp(raw).match(/http:\/\/acme\.localhost:\d+\/invite\?token=([A-Za-z0-9_-]{43})/)?.[1];
    const invite = (email: string, over: Record<string, unknown> = {}) =>
      root.post('/api/v1/admin/invitations', { email, name: 'Ivy Invitee', company_id: acme.id, user_type: '3', ...over });
    const anon = () => t.client();

    it('mails a one-time link to the company host; the invitee sets a password there and signs in', async () => {
      const r = await invite('Ivy@Example.com', { user_type: 2 });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        email: 'ivy@example.com',
        full_name: 'Ivy Invitee',
        user_type: '2',
        company_name: 'Acme',
        status: 'invited',
      });
      const mail = await mailTo('ivy@example.com');
      expect(unQp(mail.raw)).toMatch(/^Subject: You are invited to Acme on StatusWatch/m);
      const token = tokenIn(mail.raw)!;
      expect(token).toBeTruthy();
      // listed as pending to the company's admin and viewer, and to super admins
      for (const c of [adminClient, viewerClient]) {
        const list = (await c.get('/api/v1/admin/invitations', { host: acmeHost })).body;
        expect(list.map((i: any) => i.email)).toContain('ivy@example.com');
      }
      expect((await root.get(`/api/v1/admin/invitations?company_id=${globex.id}`)).body).toEqual([]);
      const c = anon();
      const look = await c.post('/api/v1/auth/invitation', { token }, { host: acmeHost });
      expect(look.status).toBe(200);
      expect(look.body).toMatchObject({ email: 'ivy@example.com', full_name: 'Ivy Invitee', company_name: 'Acme', user_type: '2' });
      // password rules as everywhere
      const weak = await c.post('/api/v1/auth/invitation/accept', { token, password: 'password' }, { host: acmeHost });
      expect(weak.status).toBe(400);
      expect(weak.body.detail).toBe('This password is too common. Choose another.');
      const short = await c.post('/api/v1/auth/invitation/accept', { token, password: 'Ab1-x' }, { host: acmeHost });
      expect(short.body.detail).toBe('Password must be at least 8 characters.');
      const ok = await c.post('/api/v1/auth/invitation/accept', { token, password: 'Ivy-chooses-1' }, { host: acmeHost });
      expect(ok.status).toBe(201);
      expect(ok.headers.getSetCookie()).toEqual([]);
      const login = await c.post('/api/v1/auth/login', { email: 'ivy@example.com', password: 'Ivy-chooses-1' }, { host: acmeHost });
      expect(login.status).toBe(200);
      expect(login.body.user).toMatchObject({ role: 'customer_admin', company_id: acme.id, full_name: 'Ivy Invitee' });
      expect((await c.get('/api/v1/admin/invitations', { host: acmeHost })).body.map((i: any) => i.email)).not.toContain('ivy@example.com');
      // the link works once
      const reuse = await anon().post('/api/v1/auth/invitation/accept', { token, password: 'Other-pass-22' }, { host: acmeHost });
      expect(reuse.status).toBe(409);
      expect(reuse.body.detail).toBe(INVITATION_USED);
      expect((await anon().post('/api/v1/auth/invitation', { token }, { host: acmeHost })).body.detail).toBe(INVITATION_USED);
    });

    it('refuses an invitation for an existing user or a pending address, and invitations to make super admins', async () => {
      expect((await invite('admin@acme.example.com')).status).toBe(409);
      expect((await invite('twice@example.com')).status).toBe(201);
      const twice = await invite('TWICE@example.com');
      expect(twice.status).toBe(409);
      expect(twice.body.detail).toBe('This email already has a pending invitation. Resend it instead.');
      expect((await invite('boss@example.com', { user_type: '1' })).status).toBe(400);
      expect((await invite('nope@example.com', { company_id: 'no-such' })).body.detail).toBe('The selected company does not exist.');
    });

    it('a revoked link is refused with a clear text', async () => {
      const r = await invite('revoked@example.com');
      const token = tokenIn((await mailTo('revoked@example.com')).raw)!;
      expect((await viewerClient.delete(`/api/v1/admin/invitations/${r.body.id}`, { host: acmeHost })).status).toBe(403);
      const del = await root.delete(`/api/v1/admin/invitations/${r.body.id}`);
      expect(del.status).toBe(200);
      const acc = await anon().post('/api/v1/auth/invitation/accept', { token, password: 'Revoked-pass-1' }, { host: acmeHost });
      expect(acc.status).toBe(404);
      expect(acc.body.detail).toBe(INVITATION_INVALID);
      expect((await root.delete(`/api/v1/admin/invitations/${r.body.id}`)).status).toBe(404);
      expect(
        (await anon().post('/api/v1/auth/login', { email: 'revoked@example.com', password: 'Revoked-pass-1' }, { host: acmeHost })).status,
      ).toBe(401);
    });

    it('resending kills the old link, is throttled, and an expired link is refused', async () => {
      const r = await invite('late@example.com');
      const first = tokenIn((await mailTo('late@example.com')).raw)!;
      const soon = await root.post(`/api/v1/admin/invitations/${r.body.id}/resend`);
      expect(soon.status).toBe(429);
      expect(soon.body.detail).toBe('This invitation was sent moments ago. You can resend it in 60 seconds.');
      expect((await viewerClient.post(`/api/v1/admin/invitations/${r.body.id}/resend`, undefined, { host: acmeHost })).status).toBe(403);
      clock += 8 * DAY;
      root = t.client();
      await signIn(root, rootUser);
      const expired = await anon().post('/api/v1/auth/invitation', { token: first }, { host: acmeHost });
      expect(expired.status).toBe(404);
      expect(expired.body.detail).toBe(INVITATION_EXPIRED);
      expect((await root.get('/api/v1/admin/invitations')).body.find((i: any) => i.id === r.body.id).status).toBe('expired');
      const again = await root.post(`/api/v1/admin/invitations/${r.body.id}/resend`);
      expect(again.status).toBe(200);
      expect(again.body.status).toBe('invited');
      const second = tokenIn((await mailTo('late@example.com', 2)).raw)!;
      expect(second).not.toBe(first);
      const old = await anon().post('/api/v1/auth/invitation/accept', { token: first, password: 'Late-comer-11' }, { host: acmeHost });
      expect(old.status).toBe(404);
      expect(old.body.detail).toBe(INVITATION_INVALID);
      expect(
        (await anon().post('/api/v1/auth/invitation/accept', { token: second, password: 'Late-comer-11' }, { host: acmeHost })).status,
      ).toBe(201);
    });

    it('an inactive company takes no new members; its invitation works again once it is active', async () => {
      const r = await invite('paused@example.com');
      const token = tokenIn((await mailTo('paused@example.com')).raw)!;
      const company = (await root.get(`/api/v1/admin/companies/${acme.id}`)).body;
      const form = { name: company.name, email: company.email, subdomain: company.subdomain };
      expect((await root.put(`/api/v1/admin/companies/${acme.id}`, { ...form, status: 'inactive' })).status).toBe(200);
      const refused = await anon().post('/api/v1/auth/invitation/accept', { token, password: 'Paused-pass-11' }, { host: acmeHost });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toBe(COMPANY_INACTIVE);
      expect((await root.put(`/api/v1/admin/companies/${acme.id}`, { ...form, status: 'active' })).status).toBe(200);
      expect((await anon().post('/api/v1/auth/invitation/accept', { token, password: 'Paused-pass-11' }, { host: acmeHost })).status).toBe(
        201,
      );
      expect(r.status).toBe(201);
      // the company's sessions ended with its deactivation
      adminClient = t.client();
      await signIn(adminClient, admin, acmeHost);
    });

    it('a made-up token is refused', async () => {
      const r = await anon().post('/api/v1/auth/invitation', { token: 'x'.repeat(43) }, { host: acmeHost });
      expect(r.status).toBe(404);
      expect(r.body.detail).toBe(INVITATION_INVALID);
    });
  });
});

describe('an invitation whose mail cannot be sent', () => {
  it('answers 503 with the reason and stays listed for a resend', async () => {
    // a port that refuses connections: a listener closed at once
    const closed = await startSmtpSink();
    await closed.close();
    const t = await startTestApp({ db: 'sqlite', env: { SMTP_URL: closed.url } });
    try {
      const rootUser = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
      const co = await seedCompany(t.services, { name: 'Mailless', subdomain: 'mailless' });
      const root = t.client();
      await signIn(root, rootUser);
      const r = await root.post('/api/v1/admin/invitations', {
        email: 'lost@example.com',
        name: 'Lost',
        company_id: co.id,
        user_type: '3',
      });
      expect(r.status).toBe(503);
      expect(r.body.detail).toBe(MAIL_FAILED);
      expect((await root.get('/api/v1/admin/invitations')).body.map((i: any) => i.email)).toEqual(['lost@example.com']);
    } finally {
      await t.close();
    }
  });
});
