// Invitation and password-reset links work only on the address they were mailed to (issue 25
// item 19), as subscriber links do: on another company's host, or on the main host, a real
// token is answered as a made-up one and changes nothing. Both databases, mail through a real
// SMTP sink on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn, TEST_PASSWORD } from '../../support/fixtures.ts';
import { INVITATION_INVALID } from '../../../src/server/domain/users/invitations.ts';
import { RESET_INVALID } from '../../../src/server/domain/auth/account.ts';
import { waitFor } from '../../support/wait-for.ts';

/** Quoted-printable soft line breaks and =3D undone, enough to read a link. */
const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe.each(DB_KINDS)('mailed links bound to their host on %s', (kind) => {
  let t: TestApp;
  let smtp: SmtpSink;
  let root: ApiClient;
  let acme: { id: string; subdomain: string };
  const ACME = 'acme.localhost';
  const GLOBEX = 'globex.localhost';

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ db: kind, env: { SMTP_URL: smtp.url } });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    const rootUser = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
    root = t.client();
    await signIn(root, rootUser);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const linkIn = (email: string, path: string) =>
    waitFor(() => {
      const mail = smtp.mails.filter((m) => m.to.includes(email)).at(-1);
      const m = mail && unQp(mail.raw).match(new RegExp(`http://([a-z0-9.-]+):\\d+/${path}\\?token=([A-Za-z0-9_-]{43})`));
      return m ? { host: m[1], token: m[2] } : undefined;
    });

  it("an invitation to Acme is not known on Globex's host or the main host, and works on Acme's", async () => {
    const r = await root.post('/api/v1/admin/invitations', { email: 'ivy@example.com', name: 'Ivy', company_id: acme.id, user_type: '3' });
    expect(r.status).toBe(201);
    const { host, token } = await linkIn('ivy@example.com', 'invite');
    expect(host).toBe(ACME);
    for (const elsewhere of [GLOBEX, 'localhost']) {
      const look = await t.client().post('/api/v1/auth/invitation', { token }, { host: elsewhere });
      expect(look.status, elsewhere).toBe(404);
      expect(look.body.detail).toBe(INVITATION_INVALID);
      const accept = await t.client().post('/api/v1/auth/invitation/accept', { token, password: 'Hijack-attempt-1' }, { host: elsewhere });
      expect(accept.status, elsewhere).toBe(404);
      expect(accept.body.detail).toBe(INVITATION_INVALID);
    }
    // nothing was created: the invitee still has no account, and the link still works at home
    expect(
      (await t.client().post('/api/v1/auth/login', { email: 'ivy@example.com', password: 'Hijack-attempt-1' }, { host: ACME })).status,
    ).toBe(401);
    expect((await t.client().post('/api/v1/auth/invitation', { token }, { host: ACME })).body.full_name).toBe('Ivy');
    expect((await t.client().post('/api/v1/auth/invitation/accept', { token, password: 'Ivy-chooses-1' }, { host: ACME })).status).toBe(
      201,
    );
    expect(
      (await t.client().post('/api/v1/auth/login', { email: 'ivy@example.com', password: 'Ivy-chooses-1' }, { host: ACME })).status,
    ).toBe(200);
  });

  it("a company user's reset link is refused on another company's host and on the main host", async () => {
    const u = await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'forgetful@acme.example.com' });
    expect((await t.client().post('/api/v1/auth/forgot-password', { email: u.email }, { host: ACME })).status).toBe(202);
    const { host, token } = await linkIn(u.email, 'reset-password');
    expect(host).toBe(ACME);
    for (const elsewhere of [GLOBEX, 'localhost']) {
      const r = await t.client().post('/api/v1/auth/reset-password', { token, new_password: 'Taken-over-pass-1' }, { host: elsewhere });
      expect(r.status, elsewhere).toBe(400);
      expect(r.body.detail).toBe(RESET_INVALID);
    }
    // the password is unchanged, and the link still works where it was mailed to
    expect((await t.client().post('/api/v1/auth/login', { email: u.email, password: TEST_PASSWORD }, { host: ACME })).status).toBe(200);
    expect((await t.client().post('/api/v1/auth/reset-password', { token, new_password: 'Brand-new-pass-1' }, { host: ACME })).status).toBe(
      200,
    );
    expect((await t.client().post('/api/v1/auth/login', { email: u.email, password: 'Brand-new-pass-1' }, { host: ACME })).status).toBe(
      200,
    );
  });

  it("a super admin's reset link works on the main host only", async () => {
    const boss = await seedUser(t.services, { userType: 1, email: 'boss@example.com' });
    await t.client().post('/api/v1/auth/forgot-password', { email: boss.email });
    const { host, token } = await linkIn(boss.email, 'reset-password');
    expect(host).toBe('localhost');
    const r = await t.client().post('/api/v1/auth/reset-password', { token, new_password: 'Taken-over-pass-1' }, { host: ACME });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe(RESET_INVALID);
    expect((await t.client().post('/api/v1/auth/reset-password', { token, new_password: 'Brand-new-pass-1' })).status).toBe(200);
  });
});
