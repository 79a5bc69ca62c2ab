// Signup, forgot-password and reset-password on both databases; mail through a real SMTP sink
// on loopback, and the server-log fallback without SMTP.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpSink } from '../../support/smtp-sink.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn, TEST_PASSWORD } from '../../support/fixtures.ts';
import { setMailLogSink } from '../../../src/server/notify/mailer.ts';
import { limiters } from '../../../src/server/domain/auth/throttle.ts';
import { verifyPassword } from '../../../src/server/domain/auth/password.ts';

async function waitFor<T>(fn: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Quoted-printable soft line breaks and =3D undone, enough to read a link. */
const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe.each(DB_KINDS)('signup on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: kind });
  });
  afterAll(async () => t?.close());

  it('creates a Starter company with the new user as its company admin', async () => {
    const c = t.client();
    const r = await c.post('/api/v1/auth/signup', { name: 'Wile E. Coyote', email: 'Wile@Example.com', password: 'Acme-rocket-1' });
    expect(r.status).toBe(201);
    expect(r.body.message).toBe('Signup successful!');
    expect(r.body.user).toMatchObject({ email: 'wile@example.com', full_name: 'Wile E. Coyote', user_type: '2', role: 'customer_admin', company: { name: 'Wile E. Coyote', subdomain: 'wile-e-coyote' } });
    expect(r.headers.getSetCookie()).toEqual([]);
    // the same name gets a unique subdomain
    const again = await c.post('/api/v1/auth/signup', { name: 'Wile E. Coyote', email: 'wile2@example.com', password: 'Acme-rocket-1' });
    expect(again.body.user.company.subdomain).toBe('wile-e-coyote-2');
    // a reserved word is never taken
    const reserved = await c.post('/api/v1/auth/signup', { name: 'Admin', email: 'admin-name@example.com', password: 'Acme-rocket-1' });
    expect(reserved.status).toBe(201);
    expect(reserved.body.user.company.subdomain).toBe('admin-co');
    // and the new admin signs in on the new subdomain
    const login = await t.client().post('/api/v1/auth/login', { email: 'wile@example.com', password: 'Acme-rocket-1' }, { host: 'wile-e-coyote.localhost' });
    expect(login.status).toBe(200);
    expect(login.body.user.company.subdomain).toBe('wile-e-coyote');
    const admin = await seedUser(t.services, { userType: 1 });
    const root = t.client();
    await signIn(root, admin);
    const company = (await root.get('/api/v1/admin/companies')).body.find((x: any) => x.subdomain === 'wile-e-coyote');
    expect(company).toMatchObject({ plan: 'starter', email: 'wile@example.com', user_count: 1, is_active: true });
    const audit = await root.get(`/api/v1/admin/audit?tenant_id=${company.id}`);
    expect(audit.body.items.map((e: any) => e.event).sort()).toEqual(['tenant_create', 'user_create', 'user_login']);
  });

  it.each([
    [{ name: ' ', email: 'a@example.com', password: 'Long-enough-1' }, 'Name is required.'],
    [{ name: 'A', email: 'not-an-email', password: 'Long-enough-1' }, 'Please enter a valid email address.'],
    [{ name: 'A', email: 'a2@example.com', password: 'short' }, 'Password must be at least 8 characters.'],
    [{ name: '', email: 'a@example.com', password: 'Long-enough-1' }, 'Name is required.'],
    [{ email: 'a@example.com', password: 'Long-enough-1' }, 'Name is required.'],
    [{ name: 'A', email: '', password: 'Long-enough-1' }, 'Email is required.'],
    [{ name: 'A', email: '   ', password: 'Long-enough-1' }, 'Email is required.'],
    [{ name: 'A', password: 'Long-enough-1' }, 'Email is required.'],
    [{ name: 'A', email: 'a3@example.com', password: '' }, 'Password is required.'],
    [{ name: 'A', email: 'a3@example.com' }, 'Password is required.'],
  ])('refuses %j', async (body, detail) => {
    const r = await t.client().post('/api/v1/auth/signup', body);
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe(detail);
    expect(Object.values(r.body.errors)).toEqual([detail]);
  });

  it('refuses a taken email without creating a company', async () => {
    await t.client().post('/api/v1/auth/signup', { name: 'Taken', email: 'taken@example.com', password: 'Long-enough-1' });
    const before = await t.services.db.k.selectFrom('companies').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const r = await t.client().post('/api/v1/auth/signup', { name: 'Taken again', email: 'TAKEN@example.com', password: 'Long-enough-1' });
    expect(r.status).toBe(409);
    expect(r.body.detail).toBe('An account with this email already exists.');
    const after = await t.services.db.k.selectFrom('companies').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('limits signups per address to 20 an hour', async () => {
    const fresh = await startTestApp({ db: kind });
    try {
      const c = fresh.client();
      for (let i = 0; i < 20; i++) {
        expect((await c.post('/api/v1/auth/signup', { name: `Shop ${i}`, email: `shop${i}@example.com`, password: 'Long-enough-1' })).status).toBe(201);
      }
      const r = await c.post('/api/v1/auth/signup', { name: 'Shop 21', email: 'shop21@example.com', password: 'Long-enough-1' });
      expect(r.status).toBe(429);
      expect(r.body.detail).toMatch(/^Too many signups from this address\. Please try again in \d+ minutes?\.$/);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await fresh.services.db.k.selectFrom('users').select('email').where('email', '=', 'shop21@example.com').execute()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('is refused with a clear detail when the operator turned it off', async () => {
    const off = await startTestApp({ db: kind, env: { SIGNUP_ENABLED: 'false' } });
    try {
      const r = await off.client().post('/api/v1/auth/signup', { name: 'No', email: 'no@example.com', password: 'Long-enough-1' });
      expect(r.status).toBe(403);
      expect(r.body.detail).toBe('Signup is disabled on this platform. Please contact the administrator for an account.');
      expect(await off.services.db.k.selectFrom('users').selectAll().execute()).toEqual([]);
    } finally {
      await off.close();
    }
  });
});

describe.each(DB_KINDS)('password recovery by email on %s', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let clock = Date.now();
  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ db: kind, env: { SMTP_URL: smtp.url, MAIL_FROM: 'robot@statuswatch.test' }, now: () => clock });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('answers the same for known and unknown emails and mails a working, single-use link', async () => {
    const co = await seedCompany(t.services, { subdomain: 'mailco' });
    const u = await seedUser(t.services, { userType: 2, companyId: co.id, email: 'forgetful@example.com' });
    const session = t.client();
    await signIn(session, u, 'mailco.localhost');

    const unknown = await t.client().post('/api/v1/auth/forgot-password', { email: 'ghost@example.com' });
    const known = await t.client().post('/api/v1/auth/forgot-password', { email: 'Forgetful@example.com' });
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(known.body).toEqual(unknown.body);
    expect(known.body.message).toBe('If an account exists for this email, we have sent a link to reset the password. The link is valid for 30 minutes.');

    const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes('forgetful@example.com')));
    expect(smtp.mails.some((m) => m.to.includes('ghost@example.com'))).toBe(false);
    expect(mail.raw).toMatch(/^From: robot@statuswatch\.test/m);
    const link = unQp(mail.raw).match(/http:\/\/mailco\.localhost:\d+\/reset-password\?token=([A-Za-z0-9_-]+)/);
    expect(link).not.toBeNull();
    const token = link![1];

    const weak = await t.client().post('/api/v1/auth/reset-password', { token, new_password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.detail).toBe('Password must be at least 8 characters.');
    const r = await t.client().post('/api/v1/auth/reset-password', { token, new_password: 'Brand-new-pass-1' });
    expect(r.status).toBe(200);
    // sessions ended, old password gone, new one works
    expect((await session.get('/api/v1/auth/me', { host: 'mailco.localhost' })).status).toBe(401);
    expect((await t.client().post('/api/v1/auth/login', { email: u.email, password: TEST_PASSWORD }, { host: 'mailco.localhost' })).status).toBe(401);
    expect((await t.client().post('/api/v1/auth/login', { email: u.email, password: 'Brand-new-pass-1' }, { host: 'mailco.localhost' })).status).toBe(200);
    // single use
    const twice = await t.client().post('/api/v1/auth/reset-password', { token, new_password: 'Another-pass-2' });
    expect(twice.status).toBe(400);
    expect(twice.body.detail).toBe('This password reset link is invalid or has expired. Please ask for a new one.');
  });

  it('expires reset links after 30 minutes', async () => {
    const u = await seedUser(t.services, { userType: 1, email: 'late@example.com' });
    await t.client().post('/api/v1/auth/forgot-password', { email: u.email });
    const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes('late@example.com')));
    const token = unQp(mail.raw).match(/reset-password\?token=([A-Za-z0-9_-]+)/)![1];
    expect(unQp(mail.raw)).toMatch(new RegExp(`http://localhost:\\d+/reset-password\\?token=${token}`));
    clock += 30 * 60_000 + 1000;
    try {
      const r = await t.client().post('/api/v1/auth/reset-password', { token, new_password: 'Too-late-pass-1' });
      expect(r.status).toBe(400);
      expect((await t.client().post('/api/v1/auth/login', { email: u.email, password: TEST_PASSWORD })).status).toBe(200);
    } finally {
      clock = Date.now();
    }
  });

  it('answers the form texts for a missing or empty email or password', async () => {
    for (const body of [{}, { email: '' }]) {
      const r = await t.client().post('/api/v1/auth/forgot-password', body);
      expect(r.status).toBe(400);
      expect(r.body.detail).toBe('Email is required.');
    }
    for (const body of [{ token: 'x'.repeat(43) }, { token: 'x'.repeat(43), new_password: '' }]) {
      const r = await t.client().post('/api/v1/auth/reset-password', body);
      expect(r.status).toBe(400);
      expect(r.body.detail).toBe('New Password is required.');
      expect(r.body.errors).toEqual({ new_password: 'New Password is required.' });
    }
    const u = await seedUser(t.services, { userType: 1 });
    const c = t.client();
    await signIn(c, u);
    for (const [body, field, message] of [
      [{ new_password: 'Good-password-1' }, 'current_password', 'Current Password is required.'],
      [{ current_password: '', new_password: 'Good-password-1' }, 'current_password', 'Current Password is required.'],
      [{ current_password: TEST_PASSWORD }, 'new_password', 'New Password is required.'],
      [{ current_password: TEST_PASSWORD, new_password: '' }, 'new_password', 'New Password is required.'],
    ] as const) {
      const r = await c.post('/api/v1/auth/change-password', body);
      expect(r.status).toBe(400);
      expect(r.body.detail).toBe(message);
      expect(r.body.errors).toEqual({ [field]: message });
    }
  });

  it('refuses made-up tokens', async () => {
    const r = await t.client().post('/api/v1/auth/reset-password', { token: 'x'.repeat(43), new_password: 'Whatever-pass-1' });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('This password reset link is invalid or has expired. Please ask for a new one.');
  });
});

describe.each(DB_KINDS)('password recovery without SMTP on %s', (kind) => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await startTestApp({ db: kind });
    setMailLogSink((l) => lines.push(l));
  });
  afterEach(() => {
    lines.length = 0;
  });
  afterAll(async () => {
    setMailLogSink((l) => process.stdout.write(l + '\n'));
    await t?.close();
  });

  it('writes the link to the server log', async () => {
    const u = await seedUser(t.services, { userType: 1, email: 'nosmtp@example.com' });
    await t.client().post('/api/v1/auth/forgot-password', { email: u.email });
    const line = await waitFor(() => lines.find((l) => l.includes('nosmtp@example.com')));
    const parsed = JSON.parse(line);
    expect(parsed.link).toMatch(/^http:\/\/localhost:\d+\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const token = new URL(parsed.link).searchParams.get('token')!;
    expect((await t.client().post('/api/v1/auth/reset-password', { token, new_password: 'From-the-log-1' })).status).toBe(200);
    // nothing is logged for unknown emails
    await t.client().post('/api/v1/auth/forgot-password', { email: 'nobody-here@example.com' });
    await new Promise((r) => setTimeout(r, 100));
    expect(lines.some((l) => l.includes('nobody-here'))).toBe(false);
  });
});

describe.each(DB_KINDS)('password throttling on %s', (kind) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({ db: kind });
    setMailLogSink(() => undefined); // links for reset requests go to the log (no SMTP here)
  });
  afterEach(async () => {
    setMailLogSink((l) => process.stdout.write(l + '\n'));
    await t?.close();
  });

  it('refuses a 31st reset request from one address within an hour, whichever emails it names', async () => {
    const u = await seedUser(t.services, { userType: 1 });
    for (let i = 0; i < 30; i++) {
      expect((await t.client().post('/api/v1/auth/forgot-password', { email: `someone${i}@example.com` })).status).toBe(202);
    }
    const r = await t.client().post('/api/v1/auth/forgot-password', { email: u.email });
    expect(r.status).toBe(429);
    expect(r.body.detail).toBe('Too many password reset requests. Please try again in 60 minutes.');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(await t.services.db.k.selectFrom('auth_codes').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
  });

  it('sends at most 5 reset links an hour to one email, answering the same every time', async () => {
    const u = await seedUser(t.services, { userType: 1 });
    const answers = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const r = await t.client().post('/api/v1/auth/forgot-password', { email: i % 2 ? u.email.toUpperCase() : u.email });
      expect(r.status).toBe(202);
      answers.add(JSON.stringify(r.body));
    }
    expect(answers.size).toBe(1);
    const codes = await t.services.db.k.selectFrom('auth_codes').select('id').where('user_id', '=', u.id).where('kind', '=', 'reset').execute();
    expect(codes).toHaveLength(5);
  });

  it('counts wrong current passwords in a password change against the account like failed sign-ins', async () => {
    const u = await seedUser(t.services, { userType: 1 });
    const c = t.client();
    await signIn(c, u);
    // 99 failed sign-ins already this hour; the 100th failure is a wrong current password
    for (let i = 0; i < 99; i++) limiters(t.services).loginAccount.hit(u.email, t.services.now());
    const wrong = await c.post('/api/v1/auth/change-password', { current_password: 'not-the-password', new_password: 'Changed-pass-1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toBe('The current password is not correct.');
    const locked = await c.post('/api/v1/auth/change-password', { current_password: TEST_PASSWORD, new_password: 'Changed-pass-1' });
    expect(locked.status).toBe(429);
    expect(locked.body.detail).toBe('Too many failed sign-in attempts. Please try again in 60 minutes.');
    expect((await t.client().post('/api/v1/auth/login', { email: u.email, password: TEST_PASSWORD })).status).toBe(429);
    // the password did not change
    const row = await t.services.db.k.selectFrom('users').select('password_hash').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(await verifyPassword(row.password_hash, TEST_PASSWORD)).toBe(true);
  });
});
