// Signup asks for the person's name, the company's name and the subdomain (issue 25 item 4), and
// the form checks the subdomain live: on both databases, the availability call (valid, reserved,
// taken, the address it gives; throttled per client address; anonymous only while signup is
// open), the three fields reaching the company and its admin, and a subdomain taken between the
// form and the mailed link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { SUBDOMAIN_TAKEN } from '../../../src/server/domain/auth/signup.ts';
import { waitFor } from '../../support/wait-for.ts';

const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
const RESERVED = "The subdomain 'admin' is reserved. Please choose another.";
const INVALID = 'Subdomain may contain only lowercase letters, digits and hyphens, and must start and end with a letter or digit.';

describe.each(DB_KINDS)('signup with a company name and a subdomain on %s', (kind) => {
  let t: TestApp;
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ db: kind, env: { SMTP_URL: smtp.url, TRUST_PROXY: 'true' } });
    await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
  const check = (subdomain: string, ip = '198.51.100.1') =>
    t.client().get(`/api/v1/auth/subdomain-availability?subdomain=${encodeURIComponent(subdomain)}`, from(ip));
  const signup = (body: Record<string, unknown>, ip = '198.51.100.2') => t.client().post('/api/v1/auth/signup', body, from(ip));
  const confirm = async (email: string) => {
    const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes(email)));
    const token = unQp(mail.raw).match(/\/signup\?token=([A-Za-z0-9_-]{43})/)![1];
    return t.client().post('/api/v1/auth/signup/verify', { token });
  };

  it('the live check says whether a subdomain is free, why not, and the address it gives', async () => {
    const free = await check('  Acme-Labs ');
    expect(free.status).toBe(200);
    expect(free.headers.get('cache-control')).toBe('no-store');
    expect(free.body).toEqual({ subdomain: 'acme-labs', available: true, message: null, address: `http://acme-labs.localhost:${t.port}` });
    expect((await check('acme')).body).toEqual({
      subdomain: 'acme',
      available: false,
      message: SUBDOMAIN_TAKEN,
      address: `http://acme.localhost:${t.port}`,
    });
    expect((await check('admin')).body).toEqual({ subdomain: 'admin', available: false, message: RESERVED, address: null });
    expect((await check('-acme')).body).toMatchObject({ available: false, message: INVALID, address: null });
    expect((await check('')).body).toMatchObject({ available: false, message: 'Subdomain is required.' });
    // nothing about the company holding it, only that it is taken
    expect(JSON.stringify((await check('acme')).body)).not.toContain('Acme"');
  });

  it('is throttled per client address: 60 checks in 10 minutes', async () => {
    for (let i = 0; i < 60; i++) expect((await check(`name-${i}`, '198.51.100.77')).status).toBe(200);
    const r = await check('one-more', '198.51.100.77');
    expect(r.status).toBe(429);
    expect(r.body.detail).toBe('Too many subdomain checks. Please try again in 10 minutes.');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await check('one-more', '198.51.100.78')).status).toBe(200);
  });

  it("the three fields become the company's name, its subdomain and the admin's name", async () => {
    const r = await signup({
      name: 'Ada Lovelace',
      company_name: 'Analytical Engines Ltd',
      subdomain: 'Engines',
      email: 'ada@example.com',
      password: 'Acme-rocket-1',
    });
    expect(r.status).toBe(202);
    const v = await confirm('ada@example.com');
    expect(v.status).toBe(201);
    expect(v.body.message).toBe("Your account is ready. Taking you to your company's dashboard…");
    expect(v.body.login_url).toBe(`http://engines.localhost:${t.port}/login`);
    expect(v.body.user).toMatchObject({ full_name: 'Ada Lovelace', company: { name: 'Analytical Engines Ltd', subdomain: 'engines' } });
    expect((await check('engines')).body.available).toBe(false);
  });

  it('refuses a taken, reserved or malformed subdomain and an empty company name, with the field named', async () => {
    const base = { name: 'Bob', company_name: 'Bob Co', email: 'bob@example.com', password: 'Acme-rocket-1' };
    const taken = await signup({ ...base, subdomain: 'acme' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ detail: SUBDOMAIN_TAKEN, errors: { subdomain: SUBDOMAIN_TAKEN } });
    const reserved = await signup({ ...base, subdomain: 'admin' });
    expect(reserved.status).toBe(400);
    expect(reserved.body.errors).toEqual({ subdomain: RESERVED });
    expect((await signup({ ...base, subdomain: 'bob_co' })).body.errors).toEqual({ subdomain: INVALID });
    const noCompany = await signup({ ...base, company_name: '  ', subdomain: 'bob-co' });
    expect(noCompany.status).toBe(400);
    expect(noCompany.body.errors).toEqual({ company_name: 'Company Name is required.' });
    expect(smtp.mails.some((m) => m.to.includes('bob@example.com'))).toBe(false);
  });

  it('a subdomain taken between the form and the link gets the next free one, and says so', async () => {
    expect(
      (await signup({ name: 'Cy', company_name: 'Cyberdyne', subdomain: 'cyberdyne', email: 'cy@example.com', password: 'Acme-rocket-1' }))
        .status,
    ).toBe(202);
    await seedCompany(t.services, { name: 'Other', subdomain: 'cyberdyne' });
    const v = await confirm('cy@example.com');
    expect(v.status).toBe(201);
    expect(v.body.user.company).toMatchObject({ name: 'Cyberdyne', subdomain: 'cyberdyne-2' });
    expect(v.body.message).toBe(
      `Your account is ready. cyberdyne was taken in the meantime, so your company's address is http://cyberdyne-2.localhost:${t.port}; you can change it in Settings → Company. Taking you to your company's dashboard…`,
    );
  });

  it('without company_name and subdomain (older clients) the name names the company, as before', async () => {
    expect((await signup({ name: 'Old Style', email: 'old@example.com', password: 'Acme-rocket-1' })).status).toBe(202);
    expect((await confirm('old@example.com')).body.user.company).toMatchObject({ name: 'Old Style', subdomain: 'old-style' });
  });
});

describe.each(DB_KINDS)('the live check while signup is closed on %s', (kind) => {
  it('is refused to anonymous callers and answered to signed-in users', async () => {
    const t = await startTestApp({ db: kind, env: { SIGNUP_ENABLED: 'false' } });
    try {
      const anon = await t.client().get('/api/v1/auth/subdomain-availability?subdomain=free-one');
      expect(anon.status).toBe(403);
      expect(anon.body.detail).toBe('Signup is disabled on this platform. Please contact the administrator for an account.');
      const co = await seedCompany(t.services, { subdomain: 'closed' });
      const admin = await seedUser(t.services, { userType: 2, companyId: co.id });
      const c = t.client();
      await signIn(c, admin, 'closed.localhost');
      const r = await c.get('/api/v1/auth/subdomain-availability?subdomain=free-one', { host: 'closed.localhost' });
      expect(r.status).toBe(200);
      expect(r.body.available).toBe(true);
    } finally {
      await t.close();
    }
  });
});
