// The Settings screen's calls on both databases: a company admin edits only their own company's
// profile (viewers 403, another company 404) and reads plan and usage (archived monitors do not
// count); the platform section for super admins, with the operator's flag locks, and the SMTP
// test through a real SMTP server on loopback and without one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';

describe.each(DB_KINDS)('settings on %s', (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let root: ApiClient;
  let rootUser: Awaited<ReturnType<typeof seedUser>>;
  let admin: ApiClient;
  let viewer: ApiClient;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({ db: kind, env: { SMTP_URL: sink.url, FLAG_ENABLE_REPORTS: 'false', SIGNUP_ENABLED: 'false' } });
    rootUser = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
    acme = await seedCompany(t.services, { subdomain: 'acme', plan: 'starter', max_users: 5 });
    globex = await seedCompany(t.services, { subdomain: 'globex' });
    const a = await seedUser(t.services, { userType: 2, companyId: acme.id });
    const v = await seedUser(t.services, { userType: 3, companyId: acme.id });
    root = t.client();
    await signIn(root, rootUser);
    admin = t.client();
    await signIn(admin, a, 'acme.localhost');
    viewer = t.client();
    await signIn(viewer, v, 'acme.localhost');
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const onAcme = { host: 'acme.localhost' };

  it('lets a company admin change their own company’s profile and branding, checked as the tenant form', async () => {
    const logo = (
      await sharp({ create: { width: 32, height: 32, channels: 4, background: '#ff6600' } })
        .png()
        .toBuffer()
    ).toString('base64');
    const r = await admin.put(
      `/api/v1/companies/${acme.id}/profile`,
      { name: 'Acme Rockets', url: 'https://acme.example', phone: '+1 555 0100', primary_color: '#AA3300', logo_base64: logo },
      onAcme,
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Acme Rockets', url: 'https://acme.example', phone: '+1 555 0100', primary_color: '#aa3300' });
    expect(r.body.logo_base64).toMatch(/^data:image\/png;base64,/);
    // The public status page wears the new brand.
    const page = await t.client().get('/api/v1/public/public-status/acme');
    expect(page.body.company).toMatchObject({ name: 'Acme Rockets', primary_color: '#aa3300' });
    const bad = await admin.put(`/api/v1/companies/${acme.id}/profile`, { primary_color: 'red', url: 'ftp://x' }, onAcme);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toMatchObject({
      primary_color: 'Primary colour must be a hex colour such as #007bff.',
      url: 'Website URL must be a valid URL, for example https://example.com.',
    });
    const fake = await admin.put(`/api/v1/companies/${acme.id}/profile`, { logo_base64: Buffer.from('<html>').toString('base64') }, onAcme);
    expect(fake.status).toBe(400);
  });

  it('refuses plan, limits and subdomain in the profile (they stay with super admins)', async () => {
    for (const body of [{ plan: 'enterprise' }, { max_users: 1000 }, { subdomain: 'evil' }]) {
      expect((await admin.put(`/api/v1/companies/${acme.id}/profile`, body, onAcme)).status).toBe(400);
    }
    expect((await root.get(`/api/v1/admin/companies/${acme.id}`)).body).toMatchObject({ plan: 'starter', subdomain: 'acme' });
  });

  it('answers 403 to a viewer and 404 for another company', async () => {
    expect((await viewer.put(`/api/v1/companies/${acme.id}/profile`, { name: 'Hijacked' }, onAcme)).status).toBe(403);
    expect((await viewer.get(`/api/v1/companies/${acme.id}/usage`, onAcme)).status).toBe(403);
    expect((await admin.put(`/api/v1/companies/${globex.id}/profile`, { name: 'Hijacked' }, onAcme)).status).toBe(404);
    expect((await admin.get(`/api/v1/companies/${globex.id}/usage`, onAcme)).status).toBe(404);
    expect((await root.get(`/api/v1/admin/companies/${globex.id}`)).body.name).not.toBe('Hijacked');
    // A super admin with a company chosen edits it from the same screen.
    const r = await root.put(`/api/v1/companies/${globex.id}/profile`, { secondary_color: '#112233' });
    expect(r.status).toBe(200);
    expect(r.body.secondary_color).toBe('#112233');
    expect((await root.put(`/api/v1/companies/nope/profile`, { name: 'x' })).status).toBe(404);
  });

  it('shows plan and usage; archived monitors do not count', async () => {
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      const m = await admin.post('/api/v1/monitors', { name, type: 'push', interval_seconds: 60, is_public: false }, onAcme);
      expect(m.status).toBe(201);
      ids.push(m.body.id);
    }
    const id = ids[0];
    expect((await admin.post(`/api/v1/monitors/${id}/archive`, undefined, onAcme)).status).toBe(200);
    const u = await admin.get(`/api/v1/companies/${acme.id}/usage`, onAcme);
    expect(u.status).toBe(200);
    expect(u.body).toEqual({
      plan: 'starter',
      monitors: { used: 2, limit: 10 },
      users: { used: 2, limit: 5 },
      spans_per_second: 2000,
      retention_days: 7,
    });
  });

  it('shows super admins the flags with the operator’s locks, and signup as read-only', async () => {
    expect((await admin.get('/api/v1/admin/platform', onAcme)).status).toBe(403);
    const p = await root.get('/api/v1/admin/platform');
    expect(p.status).toBe(200);
    expect(p.body.flags.find((f: any) => f.name === 'ENABLE_REPORTS')).toEqual({
      name: 'ENABLE_REPORTS',
      enabled: false,
      locked: true,
      reason: 'Set by the operator (FLAG_ENABLE_REPORTS=false) and cannot be changed here.',
    });
    expect(p.body.flags.filter((f: any) => f.locked)).toHaveLength(1);
    expect(p.body).toMatchObject({ signup_enabled: false, signup_source: 'env', smtp_configured: true });
    expect((await root.put('/api/v1/admin/flags', { ENABLE_REPORTS: true })).status).toBe(409);
  });

  it('sends a test mail to the signed-in super admin through SMTP, throttled; never for others', async () => {
    expect((await admin.post('/api/v1/admin/smtp-test', undefined, onAcme)).status).toBe(403);
    expect((await viewer.post('/api/v1/admin/smtp-test', undefined, onAcme)).status).toBe(403);
    const before = sink.mails.length;
    const r = await root.post('/api/v1/admin/smtp-test');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, to: 'root@example.com', message: 'The SMTP server accepted a test mail to root@example.com.' });
    expect(sink.mails.length).toBe(before + 1);
    expect(sink.mails.at(-1)!.to).toEqual(['root@example.com']);
    expect(sink.mails.at(-1)!.raw).toContain('Subject: StatusWatch SMTP test');
    for (let i = 0; i < 4; i++) expect((await root.post('/api/v1/admin/smtp-test')).status).toBe(200);
    const sixth = await root.post('/api/v1/admin/smtp-test');
    expect(sixth.status).toBe(429);
    expect(sixth.body.detail).toMatch(/^At most 5 test mails in 10 minutes\. Try again in \d+ s\.$/);
    expect(sink.mails.length).toBe(before + 5);
    const log = await root.get('/api/v1/admin/audit?event=settings_update&limit=200');
    expect(log.body.items.filter((e: any) => e.details?.smtp_test === 'sent')).toHaveLength(5);
  });
});

describe.each(DB_KINDS)('SMTP test without SMTP on %s', (kind) => {
  it('answers a clear 409 when no SMTP server is configured, and 503 with the reason when it refuses', async () => {
    const t = await startTestApp({ db: kind });
    const broken = await startTestApp({ db: kind, env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
    try {
      for (const app of [t, broken]) {
        const u = await seedUser(app.services, { userType: 1 });
        const c = app.client();
        await signIn(c, u);
        const r = await c.post('/api/v1/admin/smtp-test');
        if (app === t) {
          expect(r.status).toBe(409);
          expect(r.body.detail).toBe(
            'No SMTP server is configured: set SMTP_URL (smtp:// or smtps://) and MAIL_FROM and restart. Until then mail is written to the server log.',
          );
          expect((await c.get('/api/v1/admin/platform')).body.smtp_configured).toBe(false);
        } else {
          expect(r.status).toBe(503);
          expect(r.body.detail).toMatch(/^The SMTP server did not take the test mail: .*ECONNREFUSED/);
        }
      }
    } finally {
      await t.close();
      await broken.close();
    }
  });
});
