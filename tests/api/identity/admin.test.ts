// Companies and users administration, flags, dashboard summary and fetch-company on both
// databases: every validation rule and message, and the attacks of issue 3 ending with nothing
// changed or leaked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { actorFor, ctxFor, seedCompany, seedUser, signIn, TEST_PASSWORD } from '../../support/fixtures.ts';
import { deleteUser, updateUser } from '../../../src/server/domain/users/admin.ts';
import { SUPER_ADMIN_REQUIRED } from '../../../src/server/domain/errors.ts';
import { newId } from '../../../src/server/domain/ids.ts';
import { spansRepo } from '../../../src/server/db/repositories/spans-repo.ts';
import { redRepo } from '../../../src/server/db/repositories/red-repo.ts';
import { sql } from 'kysely';
import sharp from 'sharp';
import { insertRollups } from '../../support/rollups.ts';

// Real images: logos are decoded and drawn again at upload (a bare signature is refused).
const tiny = async (format: 'png' | 'jpeg' | 'webp') =>
  (
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
      [format]()
      .toBuffer()
  ).toString('base64');
const PNG = await tiny('png');
const JPEG = await tiny('jpeg');
const WEBP = await tiny('webp');
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32, 4)]).toString('base64');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64');

describe.each(DB_KINDS)('administration on %s', (kind) => {
  let t: TestApp;
  let root: ApiClient;
  let rootUser: Awaited<ReturnType<typeof seedUser>>;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  let acmeAdmin: Awaited<ReturnType<typeof seedUser>>;
  let acmeViewer: Awaited<ReturnType<typeof seedUser>>;
  let acmeAdminClient: ApiClient;
  let viewerClient: ApiClient;
  const acmeHost = 'acme.localhost';

  const form = (over: Record<string, unknown> = {}) => ({
    name: 'Initech',
    email: 'hello@initech.example.com',
    subdomain: `initech${Math.random().toString(36).slice(2, 8)}`,
    ...over,
  });

  beforeAll(async () => {
    t = await startTestApp({ db: kind });
    rootUser = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    acmeAdmin = await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'admin@acme.example.com' });
    acmeViewer = await seedUser(t.services, { userType: 3, companyId: acme.id, email: 'viewer@acme.example.com' });
    root = t.client();
    await signIn(root, rootUser);
    acmeAdminClient = t.client();
    await signIn(acmeAdminClient, acmeAdmin, acmeHost);
    viewerClient = t.client();
    await signIn(viewerClient, acmeViewer, acmeHost);
  });
  afterAll(async () => t?.close());

  describe('companies', () => {
    it('creates a company with the spec defaults', async () => {
      const r = await root.post('/api/v1/admin/companies', form({ subdomain: 'initech' }));
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        name: 'Initech',
        email: 'hello@initech.example.com',
        subdomain: 'initech',
        slug: 'initech',
        status: 'active',
        is_active: true,
        primary_color: '#007bff',
        secondary_color: '#6c757d',
        services: { monitor: true, security: true, data_breach: false },
        max_users: 10,
        max_workers: 50,
        threat_feed_enabled: false,
        plan: 'starter',
        url: null,
        phone: null,
        user_count: 0,
      });
      const got = await root.get(`/api/v1/admin/companies/${r.body.id}`);
      expect(got.body).toEqual(r.body);
      const list = await root.get('/api/v1/admin/companies');
      expect(list.body.find((c: any) => c.id === acme.id)).toMatchObject({ name: 'Acme', user_count: 2, max_users: 10 });
    });

    it('stores every form field, logos normalised to data URLs', async () => {
      const r = await root.post(
        '/api/v1/admin/companies',
        form({
          url: 'https://initech.example.com',
          phone: '+1 (555) 010-0100',
          primary_color: '#AA0000',
          secondary_color: '#00aa00',
          services: { monitor: false, security: true, data_breach: true },
          company_metadata: 'notes',
          max_users: 3,
          max_workers: 7,
          threat_feed_enabled: true,
          logo_base64: PNG,
          horizontal_logo_base64: `data:image/webp;base64,${WEBP}`,
          plan: 'enterprise',
          status: 'inactive',
        }),
      );
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        url: 'https://initech.example.com',
        phone: '+1 (555) 010-0100',
        primary_color: '#aa0000',
        secondary_color: '#00aa00',
        services: { monitor: false, security: true, data_breach: true },
        company_metadata: 'notes',
        max_users: 3,
        max_workers: 7,
        threat_feed_enabled: true,
        logo_base64: expect.stringMatching(/^data:image\/png;base64,/),
        horizontal_logo_base64: expect.stringMatching(/^data:image\/png;base64,/),
        plan: 'enterprise',
        status: 'inactive',
        is_active: false,
      });
      const jpeg = await root.post('/api/v1/admin/companies', form({ logo_base64: `data:image/jpeg;base64,${JPEG}` }));
      expect(jpeg.status).toBe(201);
    });

    it('takes two logos of 500 KB each in one create and one update', async () => {
      // noise does not compress: ~490 KB each
      const big = async () =>
        (
          await sharp({
            create: { width: 410, height: 410, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
          })
            .png()
            .toBuffer()
        ).toString('base64');
      const body = form({ logo_base64: await big(), horizontal_logo_base64: await big() });
      // over the 1 MiB every other call is held to
      expect(JSON.stringify(body).length).toBeGreaterThan(1024 * 1024);
      const r = await root.post('/api/v1/admin/companies', body);
      expect(r.status).toBe(201);
      expect(r.body.logo_base64).toMatch(/^data:image\/(png|webp);base64,/);
      expect(r.body.horizontal_logo_base64).toMatch(/^data:image\/(png|webp);base64,/);
      const u = await root.put(`/api/v1/admin/companies/${r.body.id}`, {
        ...body,
        subdomain: r.body.subdomain,
        logo_base64: await big(),
        horizontal_logo_base64: await big(),
      });
      expect(u.status).toBe(200);
      expect(u.body.logo_base64).not.toBe(r.body.logo_base64);
      // other calls keep the 1 MiB limit
      const huge = await root.post('/api/v1/auth/change-password', { current_password: 'x'.repeat(1024 * 1024), new_password: 'y' });
      expect(huge.status).toBe(413);
    });

    it.each([
      [{ name: '' }, 'name', 'Company Name is required.'],
      [{ name: '   ' }, 'name', 'Company Name is required.'],
      [{ email: '' }, 'email', 'Email is required.'],
      [{ email: 'not-an-email' }, 'email', 'Please enter a valid email address.'],
      [{ subdomain: '' }, 'subdomain', 'Subdomain is required.'],
      [
        { subdomain: 'Acme' },
        'subdomain',
        'Subdomain may contain only lowercase letters, digits and hyphens, and must start and end with a letter or digit.',
      ],
      [
        { subdomain: 'bad_name' },
        'subdomain',
        'Subdomain may contain only lowercase letters, digits and hyphens, and must start and end with a letter or digit.',
      ],
      [
        { subdomain: '-x' },
        'subdomain',
        'Subdomain may contain only lowercase letters, digits and hyphens, and must start and end with a letter or digit.',
      ],
      [{ subdomain: 'www' }, 'subdomain', "The subdomain 'www' is reserved. Please choose another."],
      [{ subdomain: 'api' }, 'subdomain', "The subdomain 'api' is reserved. Please choose another."],
      [{ subdomain: 'admin' }, 'subdomain', "The subdomain 'admin' is reserved. Please choose another."],
      [{ subdomain: 'localhost' }, 'subdomain', "The subdomain 'localhost' is reserved. Please choose another."],
      [{ url: 'not a url' }, 'url', 'Website URL must be a valid URL, for example https://example.com.'],
      [{ url: 'javascript:alert(1)' }, 'url', 'Website URL must be a valid URL, for example https://example.com.'],
      [{ phone: 'call me' }, 'phone', 'Phone must be a valid phone number.'],
      [{ max_users: 0 }, 'max_users', 'Max Users must be at least 1.'],
      [{ max_users: -4 }, 'max_users', 'Max Users must be at least 1.'],
      [{ max_users: 100_001 }, 'max_users', 'Max Users must be at most 100000.'],
      [{ max_workers: 0 }, 'max_workers', 'Max Workers must be between 1 and 100000.'],
      [{ max_workers: 100_001 }, 'max_workers', 'Max Workers must be between 1 and 100000.'],
      [{ slug: 'Not A Slug' }, 'slug', 'Slug may contain only lowercase letters, digits and hyphens.'],
      [{ slug: 'under_score' }, 'slug', 'Slug may contain only lowercase letters, digits and hyphens.'],
      [{ primary_color: 'red' }, 'primary_color', 'Primary colour must be a hex colour such as #007bff.'],
      [{ primary_color: '#fff' }, 'primary_color', 'Primary colour must be a hex colour such as #007bff.'],
      [{ secondary_color: '#12345g' }, 'secondary_color', 'Secondary colour must be a hex colour such as #007bff.'],
      [{ logo_base64: GIF }, 'logo_base64', 'Logo must be a PNG, JPEG or WebP image.'],
      [{ logo_base64: SVG }, 'logo_base64', 'Logo must be a PNG, JPEG or WebP image.'],
      [{ logo_base64: `data:image/png;base64,${JPEG}` }, 'logo_base64', 'Logo must be a PNG, JPEG or WebP image.'],
      [{ logo_base64: 'not base64 !!' }, 'logo_base64', 'Logo must be a base64-encoded PNG, JPEG or WebP image.'],
      [
        {
          horizontal_logo_base64: Buffer.concat([
            Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
            Buffer.alloc(512 * 1024),
          ]).toString('base64'),
        },
        'horizontal_logo_base64',
        'Horizontal logo must be at most 512 KB.',
      ],
    ])('refuses %j: %s', async (over, field, message) => {
      const before = (await root.get('/api/v1/admin/companies')).body.length;
      const r = await root.post('/api/v1/admin/companies', form(over));
      expect(r.status).toBe(400);
      expect(r.body.detail).toBe(message);
      expect(r.body.errors[field]).toBe(message);
      expect((await root.get('/api/v1/admin/companies')).body.length).toBe(before);
    });

    it.each([
      ['name', 'Company Name is required.'],
      ['email', 'Email is required.'],
      ['subdomain', 'Subdomain is required.'],
    ])('answers the form text when %s is left out, on create and update', async (key, message) => {
      const body: Record<string, unknown> = form();
      delete body[key];
      const r = await root.post('/api/v1/admin/companies', body);
      expect(r.status).toBe(400);
      expect(r.body.detail).toBe(message);
      expect(r.body.errors).toEqual({ [key]: message });
      const u = await root.put(`/api/v1/admin/companies/${globex.id}`, body);
      expect(u.status).toBe(400);
      expect(u.body.detail).toBe(message);
    });

    it('refuses unknown fields and a plan that does not exist', async () => {
      const extra = await root.post('/api/v1/admin/companies', form({ id: 'chosen' }));
      expect(extra.status).toBe(400);
      const plan = await root.post('/api/v1/admin/companies', form({ plan: 'free' }));
      expect(plan.status).toBe(400);
    });

    it('keeps slugs unique, on create and on update', async () => {
      const a = await root.post('/api/v1/admin/companies', form({ slug: 'shared-slug' }));
      expect(a.status).toBe(201);
      expect(a.body.slug).toBe('shared-slug');
      const before = (await root.get('/api/v1/admin/companies')).body.length;
      const b = await root.post('/api/v1/admin/companies', form({ slug: 'shared-slug' }));
      expect(b.status).toBe(409);
      expect(b.body.detail).toBe('This slug is already taken. Please choose another.');
      expect(b.body.errors).toEqual({ slug: 'This slug is already taken. Please choose another.' });
      expect((await root.get('/api/v1/admin/companies')).body.length).toBe(before);
      // another company's subdomain is its slug too
      const c = await root.post('/api/v1/admin/companies', form());
      const clash = await root.put(`/api/v1/admin/companies/${c.body.id}`, form({ subdomain: c.body.subdomain, slug: 'globex' }));
      expect(clash.status).toBe(409);
      expect(clash.body.detail).toBe('This slug is already taken. Please choose another.');
      expect((await root.get(`/api/v1/admin/companies/${c.body.id}`)).body.slug).toBe(c.body.subdomain);
      // its own slug is no clash
      expect(
        (await root.put(`/api/v1/admin/companies/${a.body.id}`, form({ subdomain: a.body.subdomain, slug: 'shared-slug' }))).status,
      ).toBe(200);
    });

    it('keeps subdomains unique', async () => {
      const r = await root.post('/api/v1/admin/companies', form({ subdomain: 'acme' }));
      expect(r.status).toBe(409);
      expect(r.body.detail).toBe('This subdomain is already taken. Please choose another.');
      const created = await root.post('/api/v1/admin/companies', form());
      const clash = await root.put(`/api/v1/admin/companies/${created.body.id}`, form({ subdomain: 'globex' }));
      expect(clash.status).toBe(409);
      expect((await root.get(`/api/v1/admin/companies/${created.body.id}`)).body.subdomain).toBe(created.body.subdomain);
    });

    it('updates a company and refuses Max Users below its user count', async () => {
      const c = await root.post('/api/v1/admin/companies', form());
      const r = await root.put(
        `/api/v1/admin/companies/${c.body.id}`,
        form({ name: 'Initrode', subdomain: c.body.subdomain, plan: 'professional', max_users: 5 }),
      );
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ name: 'Initrode', plan: 'professional', max_users: 5 });
      const low = await root.put(`/api/v1/admin/companies/${acme.id}`, {
        name: 'Acme',
        email: 'contact@acme.example.com',
        subdomain: 'acme',
        max_users: 1,
      });
      expect(low.status).toBe(400);
      expect(low.body.detail).toBe("Max Users cannot be lower than the company's 2 existing users.");
      expect((await root.get(`/api/v1/admin/companies/${acme.id}`)).body.max_users).toBe(10);
      expect((await root.put('/api/v1/admin/companies/nope', form())).status).toBe(404);
      expect((await root.get('/api/v1/admin/companies/nope')).status).toBe(404);
      expect((await root.delete('/api/v1/admin/companies/nope')).status).toBe(404);
    });

    it('changes only the services keys an update names, and keeps optional fields it leaves out', async () => {
      const c = await root.post(
        '/api/v1/admin/companies',
        form({
          url: 'https://kept.example.com',
          phone: '+1 555 0100',
          primary_color: '#112233',
          max_workers: 7,
          services: { monitor: false, security: false, data_breach: false },
        }),
      );
      expect(c.status).toBe(201);
      const base = { name: c.body.name, email: c.body.email, subdomain: c.body.subdomain };
      const r = await root.put(`/api/v1/admin/companies/${c.body.id}`, { ...base, services: { data_breach: true } });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        services: { monitor: false, security: false, data_breach: true },
        url: 'https://kept.example.com',
        phone: '+1 555 0100',
        primary_color: '#112233',
        max_workers: 7,
      });
      const r2 = await root.put(`/api/v1/admin/companies/${c.body.id}`, { ...base, services: { monitor: true }, url: null, phone: '' });
      expect(r2.body).toMatchObject({ services: { monitor: true, security: false, data_breach: true }, url: null, phone: null });
      // a new company's missing keys take the defaults
      const fresh = await root.post('/api/v1/admin/companies', form({ services: { security: false } }));
      expect(fresh.body.services).toEqual({ monitor: true, security: false, data_breach: false });
    });

    it.each([
      [{ url: 'ftp//nope' }, 'url', 'Website URL must be a valid URL, for example https://example.com.'],
      [{ email: 'nope' }, 'email', 'Please enter a valid email address.'],
      [
        { subdomain: 'Bad_Sub' },
        'subdomain',
        'Subdomain may contain only lowercase letters, digits and hyphens, and must start and end with a letter or digit.',
      ],
      [{ slug: 'Bad Slug' }, 'slug', 'Slug may contain only lowercase letters, digits and hyphens.'],
      [{ primary_color: 'blue' }, 'primary_color', 'Primary colour must be a hex colour such as #007bff.'],
      [{ max_users: 100_001 }, 'max_users', 'Max Users must be at most 100000.'],
      [{ max_workers: 0 }, 'max_workers', 'Max Workers must be between 1 and 100000.'],
      [{ logo_base64: GIF }, 'logo_base64', 'Logo must be a PNG, JPEG or WebP image.'],
    ])('refuses an update with %j, changing nothing', async (over, field, message) => {
      const before = (await root.get(`/api/v1/admin/companies/${globex.id}`)).body;
      const r = await root.put(`/api/v1/admin/companies/${globex.id}`, {
        name: 'Globex',
        email: before.email,
        subdomain: 'globex',
        ...over,
      });
      expect(r.status).toBe(400);
      expect(r.body.detail).toBe(message);
      expect(r.body.errors[field]).toBe(message);
      expect((await root.get(`/api/v1/admin/companies/${globex.id}`)).body).toEqual(before);
    });

    it('ends the sessions of a deactivated company and refuses its sign-ins', async () => {
      const co = await seedCompany(t.services, { subdomain: 'sleepy' });
      const u = await seedUser(t.services, { userType: 2, companyId: co.id });
      const c = t.client();
      await signIn(c, u, 'sleepy.localhost');
      expect((await c.get('/api/v1/auth/me', { host: 'sleepy.localhost' })).status).toBe(200);
      const r = await root.put(`/api/v1/admin/companies/${co.id}`, {
        name: 'Sleepy',
        email: 'a@sleepy.example.com',
        subdomain: 'sleepy',
        is_active: false,
      });
      expect(r.status).toBe(200);
      expect((await c.get('/api/v1/auth/me', { host: 'sleepy.localhost' })).status).toBe(401);
      expect((await c.post('/api/v1/auth/refresh-token', undefined, { host: 'sleepy.localhost' })).status).toBe(401);
      const again = await t.client().post('/api/v1/auth/login', { email: u.email, password: TEST_PASSWORD }, { host: 'sleepy.localhost' });
      expect(again.status).toBe(404);
      expect(again.body.detail).toBe('Company not found or inactive');
    });

    it('deletes a company with its users and sessions', async () => {
      const co = await seedCompany(t.services, { subdomain: 'doomed' });
      const u = await seedUser(t.services, { userType: 3, companyId: co.id });
      const owner = await seedUser(t.services, { userType: 2, companyId: co.id });
      const c = t.client();
      await signIn(c, u, 'doomed.localhost');
      const oc = t.client();
      await signIn(oc, owner, 'doomed.localhost');
      const m = await oc.post(
        '/api/v1/monitors',
        { name: 'Doomed site', type: 'http', url: 'https://example.com/', interval_seconds: 60, is_public: true },
        { host: 'doomed.localhost' },
      );
      expect(m.status).toBe(201);
      // another company whose data must stay
      const keep = await seedCompany(t.services, { subdomain: 'keeper' });
      const keepAdmin = await seedUser(t.services, { userType: 2, companyId: keep.id });
      const kc = t.client();
      await signIn(kc, keepAdmin, 'keeper.localhost');
      const m2 = await kc.post(
        '/api/v1/monitors',
        { name: 'Kept site', type: 'http', url: 'https://example.com/', interval_seconds: 60 },
        { host: 'keeper.localhost' },
      );
      expect(m2.status).toBe(201);
      await seedCompanyData(t, co.id, m.body.id, owner.id);
      await seedCompanyData(t, keep.id, m2.body.id, keepAdmin.id);
      const ids = [co.id, u.id, owner.id, m.body.id];
      const keptIds = [keep.id, keepAdmin.id, m2.body.id];
      expect((await rowsMentioning(t, ids)).length).toBeGreaterThan(10);
      const kept = await rowsMentioning(t, keptIds);

      const r = await root.delete(`/api/v1/admin/companies/${co.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ ok: true });
      expect((await root.get(`/api/v1/admin/companies/${co.id}`)).status).toBe(404);
      expect((await root.get('/api/v1/admin/users')).body.some((x: any) => x.id === u.id)).toBe(false);
      expect((await c.get('/api/v1/auth/me', { host: 'doomed.localhost' })).status).toBe(401);
      // nothing of the company is left in any table (the audit trail keeps its history)
      expect(await rowsMentioning(t, ids)).toEqual([]);
      expect(await rowsMentioning(t, keptIds)).toEqual(kept);
      expect((await root.delete(`/api/v1/admin/companies/${keep.id}`)).status).toBe(200);
      expect(await rowsMentioning(t, keptIds)).toEqual([]);
    });
  });

  describe('users', () => {
    const userForm = (over: Record<string, unknown> = {}) => ({
      name: 'New Person',
      email: `p${Math.random().toString(36).slice(2, 8)}@example.com`,
      password: 'Good-password-1',
      user_type: '2',
      company_id: globex.id,
      ...over,
    });

    it('lists users with their company name', async () => {
      const r = await root.get('/api/v1/admin/users');
      expect(r.status).toBe(200);
      expect(r.body.find((u: any) => u.id === acmeAdmin.id)).toMatchObject({
        email: 'admin@acme.example.com',
        user_type: '2',
        company_id: acme.id,
        company_name: 'Acme',
        is_active: true,
      });
      expect(r.body.find((u: any) => u.id === rootUser.id)).toMatchObject({ user_type: '1', company_id: null, company_name: null });
      expect(JSON.stringify(r.body)).not.toContain('argon2');
    });

    it('creates users who can then sign in', async () => {
      const f = userForm({ user_type: 3 });
      const r = await root.post('/api/v1/admin/users', f);
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        email: f.email,
        full_name: 'New Person',
        user_type: '3',
        company_id: globex.id,
        company_name: 'Globex',
        is_active: true,
      });
      expect(r.body).not.toHaveProperty('password');
      expect(
        (await t.client().post('/api/v1/auth/login', { email: f.email, password: 'Good-password-1' }, { host: 'globex.localhost' })).status,
      ).toBe(200);
      const sa = await root.post('/api/v1/admin/users', userForm({ user_type: '1', company_id: null }));
      expect(sa.status).toBe(201);
      expect(sa.body).toMatchObject({ user_type: '1', company_id: null });
    });

    it.each([
      [{ name: '' }, 'name', 'Full Name is required.'],
      [{ email: '' }, 'email', 'Email is required.'],
      [{ email: 'nope' }, 'email', 'Please enter a valid email address.'],
      [{ password: '' }, 'password', 'Password is required.'],
      [{ password: 'short' }, 'password', 'Password must be at least 8 characters.'],
      [{ user_type: '1' }, 'company_id', 'Super admin users should not be assigned to a specific company'],
      [{ user_type: '2', company_id: null }, 'company_id', 'Company admin and user/viewer must be assigned to a company'],
      [{ user_type: 3, company_id: '' }, 'company_id', 'Company admin and user/viewer must be assigned to a company'],
      [{ company_id: 'no-such-company' }, 'company_id', 'The selected company does not exist.'],
    ])('refuses %j: %s', async (over, field, message) => {
      const before = (await root.get('/api/v1/admin/users')).body.length;
      const r = await root.post('/api/v1/admin/users', userForm(over));
      expect(r.status).toBe(400);
      expect(r.body.detail).toBe(message);
      expect(r.body.errors[field]).toBe(message);
      expect((await root.get('/api/v1/admin/users')).body.length).toBe(before);
    });

    it.each([
      ['name', 'Full Name is required.'],
      ['email', 'Email is required.'],
      ['password', 'Password is required.'],
      ['user_type', 'User Type is required.'],
    ])('answers the form text when %s is left out', async (key, message) => {
      const body: Record<string, unknown> = userForm();
      delete body[key];
      const r = await root.post('/api/v1/admin/users', body);
      expect(r.status).toBe(400);
      expect(r.body.detail).toBe(message);
      expect(r.body.errors).toEqual({ [key]: message });
      if (key !== 'password') {
        const u = await root.put(`/api/v1/admin/users/${acmeViewer.id}`, { ...body, password: undefined });
        expect(u.status).toBe(400);
        expect(u.body.detail).toBe(message);
      }
    });

    it('answers the form text when the new password is left out', async () => {
      const r = await root.post(`/api/v1/admin/users/${acmeViewer.id}/reset-password`, {});
      expect(r.status).toBe(400);
      expect(r.body.detail).toBe('New Password is required.');
      expect(r.body.errors).toEqual({ new_password: 'New Password is required.' });
    });

    it('refuses a user type that does not exist and a duplicate email', async () => {
      expect((await root.post('/api/v1/admin/users', userForm({ user_type: '4' }))).status).toBe(400);
      const dup = await root.post('/api/v1/admin/users', userForm({ email: 'ADMIN@acme.example.com' }));
      expect(dup.status).toBe(409);
      expect(dup.body.detail).toBe('A user with this email already exists.');
    });

    it("refuses an update to another user's email, changing nothing", async () => {
      const before = (await root.get('/api/v1/admin/users')).body.find((u: any) => u.id === acmeViewer.id);
      const r = await root.put(`/api/v1/admin/users/${acmeViewer.id}`, {
        name: 'Viewer',
        email: 'ADMIN@acme.example.com',
        user_type: '3',
        company_id: acme.id,
      });
      expect(r.status).toBe(409);
      expect(r.body.detail).toBe('A user with this email already exists.');
      expect(r.body.errors).toEqual({ email: 'A user with this email already exists.' });
      expect((await root.get('/api/v1/admin/users')).body.find((u: any) => u.id === acmeViewer.id)).toEqual(before);
      // the own email, in other letters, is no clash
      const own = await root.put(`/api/v1/admin/users/${acmeViewer.id}`, {
        name: before.full_name,
        email: acmeViewer.email.toUpperCase(),
        user_type: '3',
        company_id: acme.id,
      });
      expect(own.status).toBe(200);
      expect(own.body.email).toBe(acmeViewer.email);
    });

    it("enforces the company's max_users", async () => {
      const small = await seedCompany(t.services, { name: 'Tiny', subdomain: 'tiny', max_users: 1 });
      expect((await root.post('/api/v1/admin/users', userForm({ company_id: small.id }))).status).toBe(201);
      const full = await root.post('/api/v1/admin/users', userForm({ company_id: small.id }));
      expect(full.status).toBe(422);
      expect(full.body.detail).toBe('Tiny already has its maximum of 1 user. Raise Max Users to add more.');
      const move = await root.put(`/api/v1/admin/users/${acmeViewer.id}`, {
        name: 'V',
        email: acmeViewer.email,
        user_type: '3',
        company_id: small.id,
      });
      expect(move.status).toBe(422);
      expect((await root.get('/api/v1/admin/users')).body.find((u: any) => u.id === acmeViewer.id).company_id).toBe(acme.id);
    });

    it('updates a user; a new role ends their sessions', async () => {
      const u = await seedUser(t.services, { userType: 3, companyId: globex.id });
      const c = t.client();
      await signIn(c, u, 'globex.localhost');
      const r = await root.put(`/api/v1/admin/users/${u.id}`, { name: 'Promoted', email: u.email, user_type: 2, company_id: globex.id });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ full_name: 'Promoted', user_type: '2' });
      expect((await c.get('/api/v1/auth/me', { host: 'globex.localhost' })).status).toBe(401);
      // type 1 never carries a company
      const bad = await root.put(`/api/v1/admin/users/${u.id}`, { name: 'X', email: u.email, user_type: '1', company_id: globex.id });
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toBe('Super admin users should not be assigned to a specific company');
      // a password is never part of an update
      expect(
        (
          await root.put(`/api/v1/admin/users/${u.id}`, {
            name: 'X',
            email: u.email,
            user_type: '2',
            company_id: globex.id,
            password: 'Sneaky-pass-1',
          })
        ).status,
      ).toBe(400);
      expect((await root.put('/api/v1/admin/users/nope', { name: 'X', email: 'x@y.zz', user_type: '1' })).status).toBe(404);
      // made a super admin with company_id left out (the console's payload): the company is dropped
      const sa = await root.put(`/api/v1/admin/users/${u.id}`, { name: 'Now Root', email: u.email, user_type: '1' });
      expect(sa.status).toBe(200);
      expect(sa.body).toMatchObject({ user_type: '1', company_id: null, company_name: null });
    });

    it('deactivating a user ends their sessions', async () => {
      const u = await seedUser(t.services, { userType: 2, companyId: globex.id });
      const c = t.client();
      await signIn(c, u, 'globex.localhost');
      const r = await root.put(`/api/v1/admin/users/${u.id}`, {
        name: 'Off',
        email: u.email,
        user_type: '2',
        company_id: globex.id,
        is_active: false,
      });
      expect(r.body.is_active).toBe(false);
      expect((await c.get('/api/v1/auth/me', { host: 'globex.localhost' })).status).toBe(401);
      expect((await c.post('/api/v1/auth/refresh-token', undefined, { host: 'globex.localhost' })).status).toBe(401);
    });

    it('resets a password: required, ends sessions, old password stops working', async () => {
      const u = await seedUser(t.services, { userType: 3, companyId: globex.id });
      const c = t.client();
      await signIn(c, u, 'globex.localhost');
      const empty = await root.post(`/api/v1/admin/users/${u.id}/reset-password`, { new_password: '' });
      expect(empty.status).toBe(400);
      expect(empty.body.detail).toBe('New Password is required.');
      expect((await root.post(`/api/v1/admin/users/nope/reset-password`, { new_password: 'Another-pass-1' })).status).toBe(404);
      const r = await root.post(`/api/v1/admin/users/${u.id}/reset-password`, { new_password: 'Another-pass-1' });
      expect(r.status).toBe(200);
      expect((await c.get('/api/v1/auth/me', { host: 'globex.localhost' })).status).toBe(401);
      expect(
        (await t.client().post('/api/v1/auth/login', { email: u.email, password: TEST_PASSWORD }, { host: 'globex.localhost' })).status,
      ).toBe(401);
      expect(
        (await t.client().post('/api/v1/auth/login', { email: u.email, password: 'Another-pass-1' }, { host: 'globex.localhost' })).status,
      ).toBe(200);
    });

    it('deletes users but never the last super admin', async () => {
      const u = await seedUser(t.services, { userType: 3, companyId: globex.id });
      expect((await root.delete(`/api/v1/admin/users/${u.id}`)).status).toBe(200);
      expect((await root.delete(`/api/v1/admin/users/${u.id}`)).status).toBe(404);

      const solo = await startTestApp({ db: kind });
      try {
        const only = await seedUser(solo.services, { userType: 1 });
        const c = solo.client();
        await signIn(c, only);
        const del = await c.delete(`/api/v1/admin/users/${only.id}`);
        expect(del.status).toBe(409);
        expect(del.body.detail).toBe(
          'The last active super admin cannot be removed, demoted or deactivated. Create another super admin first.',
        );
        const demote = await c.put(`/api/v1/admin/users/${only.id}`, { name: 'x', email: only.email, user_type: '1', is_active: false });
        expect(demote.status).toBe(409);
        expect((await c.get('/api/v1/auth/me')).status).toBe(200);

        // two super admins removing each other at the same moment: one of them stays
        const second = await seedUser(solo.services, { userType: 1 });
        const c2 = solo.client();
        await signIn(c2, second);
        const results = await Promise.all([c.delete(`/api/v1/admin/users/${second.id}`), c2.delete(`/api/v1/admin/users/${only.id}`)]);
        // the loser is refused (409), or finds its own account already gone (401)
        const statuses = results.map((r) => r.status).sort();
        expect(statuses[0]).toBe(200);
        expect([401, 409]).toContain(statuses[1]);
        const left = await solo.services.db.k.selectFrom('users').select('id').where('user_type', '=', 1).execute();
        expect(left).toHaveLength(1);

        // the same race with both sessions already verified: the row lock decides
        const a = await seedUser(solo.services, { userType: 1 });
        const survivor = { id: left[0].id, email: 'x', userType: 1 as const, companyId: null };
        const ctxA = ctxFor(solo.services, actorFor({ ...a, userType: 1 }));
        const ctxS = ctxFor(solo.services, actorFor(survivor));
        const outcomes = await Promise.allSettled([
          deleteUser(ctxA, survivor.id),
          updateUser(ctxS, a.id, { name: 'A', email: a.email, user_type: '1', is_active: false }),
        ]);
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
        expect(rejected.reason.detail).toBe(
          'The last active super admin cannot be removed, demoted or deactivated. Create another super admin first.',
        );
        const active = await solo.services.db.k
          .selectFrom('users')
          .select('id')
          .where('user_type', '=', 1)
          .where('is_active', '=', true)
          .execute();
        expect(active).toHaveLength(1);
      } finally {
        await solo.close();
      }
    });
  });

  describe('attacks', () => {
    const adminCalls = (id: string): Array<[string, string, unknown?]> => [
      ['GET', '/api/v1/admin/companies'],
      ['GET', `/api/v1/admin/companies/${id}`],
      ['POST', '/api/v1/admin/companies', { name: 'Evil', email: 'e@evil.example.com', subdomain: 'evilco' }],
      ['PUT', `/api/v1/admin/companies/${id}`, { name: 'Owned', email: 'e@evil.example.com', subdomain: 'owned', max_users: 999 }],
      ['DELETE', `/api/v1/admin/companies/${id}`],
      // listing and updating users are the Team screen's calls, open to company users in part:
      // their refusals are in team.test.ts
      ['POST', '/api/v1/admin/users', { name: 'Evil', email: 'evil@example.com', password: 'Evil-password-1', user_type: '1' }],
      ['DELETE', `/api/v1/admin/users/${rootUser.id}`],
      ['POST', `/api/v1/admin/users/${rootUser.id}/reset-password`, { new_password: 'Hijacked-pass-1' }],
      ['PUT', '/api/v1/admin/flags', { ENABLE_GLOBAL_EXPORT: true }],
      ['GET', '/api/v1/admin/dashboard-summary'],
      ['GET', '/api/v1/admin/audit'],
    ];

    it('refuses every admin call to viewers and company admins (also with spoofed X-Role / X-Tenant-Id), changing nothing', async () => {
      const companiesBefore = (await root.get('/api/v1/admin/companies')).body;
      const usersBefore = (await root.get('/api/v1/admin/users')).body;
      for (const client of [viewerClient, acmeAdminClient]) {
        for (const target of [acme.id, globex.id]) {
          for (const [method, path, body] of adminCalls(target)) {
            for (const headers of [{}, { 'x-role': 'super_admin', 'x-tenant-id': globex.id }] as Array<Record<string, string>>) {
              const r = await client.request(method, path, { host: acmeHost, body, headers });
              expect(r.status, `${method} ${path}`).toBe(403);
              expect(r.body.detail).toBe(SUPER_ADMIN_REQUIRED);
            }
          }
        }
      }
      // on the main host too
      const mainHost = t.client();
      await signIn(mainHost, acmeAdmin);
      for (const [method, path, body] of adminCalls(globex.id)) {
        const r = await mainHost.request(method, path, { body });
        expect(r.status, `${method} ${path}`).toBe(403);
        expect(r.body.detail).toBe(SUPER_ADMIN_REQUIRED);
      }
      expect((await root.get('/api/v1/admin/companies')).body).toEqual(companiesBefore);
      // (signing in above moved a last sign-in time; nothing else may differ)
      const noSignIn = (users: Array<Record<string, unknown>>) => users.map(({ last_sign_in_at: _, ...u }) => u);
      expect(noSignIn((await root.get('/api/v1/admin/users')).body)).toEqual(noSignIn(usersBefore));
      expect((await t.client().post('/api/v1/auth/login', { email: rootUser.email, password: 'Hijacked-pass-1' })).status).toBe(401);
    });

    it("refuses a cross-site request riding on a super admin's session", async () => {
      const before = (await root.get('/api/v1/admin/companies')).body.length;
      const r = await root.post(
        '/api/v1/admin/companies',
        { name: 'Csrf', email: 'c@csrf.example.com', subdomain: 'csrf' },
        { headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } },
      );
      expect(r.status).toBe(403);
      expect(r.body.detail).toBe('Cross-site requests are not allowed.');
      const sibling = await root.delete(`/api/v1/admin/companies/${globex.id}`, {
        headers: { origin: `http://acme.localhost:${t.port}`, 'sec-fetch-site': 'same-site' },
      });
      expect(sibling.status).toBe(403);
      expect((await root.get('/api/v1/admin/companies')).body.length).toBe(before);
    });

    it('answers 401 to every admin call without a session', async () => {
      for (const [method, path, body] of adminCalls(acme.id)) {
        const r = await t.client().request(method, path, { body, headers: { 'x-role': 'super_admin' } });
        expect(r.status, `${method} ${path}`).toBe(401);
      }
    });

    it("does not widen a company user's access with tenant ids in the query or body", async () => {
      // query parameters the call does not declare are refused outright
      const q = await acmeAdminClient.get(`/api/v1/company/fetch-company?tenant_id=${globex.id}&company_id=${globex.id}`, {
        host: acmeHost,
      });
      expect(q.status).toBe(400);
      expect(q.body.detail).toBe("Invalid query: unknown property 'tenant_id'");
      expect(q.text).not.toContain('Globex');
      const own = await acmeAdminClient.get('/api/v1/company/fetch-company', { host: acmeHost, headers: { 'x-tenant-id': globex.id } });
      expect(own.body.company.id).toBe(acme.id);
    });
  });

  describe('fetch-company, flags, summary', () => {
    it("gives a company user their company's subdomain and branding", async () => {
      const r = await viewerClient.get('/api/v1/company/fetch-company', { host: acmeHost });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        subdomain: 'acme',
        company: { id: acme.id, name: 'Acme', subdomain: 'acme', primary_color: '#007bff', secondary_color: '#6c757d' },
      });
      expect(r.body.company).not.toHaveProperty('user_count');
      // on the main host too (the redirect flow needs it)
      const main = t.client();
      await signIn(main, acmeViewer);
      expect((await main.get('/api/v1/company/fetch-company')).body.subdomain).toBe('acme');
      const sa = await root.get('/api/v1/company/fetch-company');
      expect(sa.status).toBe(404);
      expect(sa.body.detail).toBe('Your account is not assigned to a company.');
      expect((await t.client().get('/api/v1/company/fetch-company')).status).toBe(401);
    });

    it("serves a company user's data calls only on their subdomain", async () => {
      const main = t.client();
      await signIn(main, acmeViewer);
      // every implemented data call of the other areas (monitors, incidents, notifications, ...)
      const { loadSpec } = await import('../../../src/server/http/openapi/spec.ts');
      const { handlers } = await import('../../../src/server/http/handlers/index.ts');
      const ops = (await loadSpec()).operations.filter(
        (o) =>
          o.requiresAuth &&
          !o.apiKey &&
          o.method === 'GET' &&
          !o.path.includes('{') &&
          !o.path.startsWith('/api/v1/admin/') &&
          !['getMe', 'fetchCompany'].includes(o.operationId) &&
          o.operationId in handlers,
      );
      // what a call needs to be a valid request at all (else it is refused as one, 400)
      const required: Record<string, string> = { getSlaReport: '?from=2026-10-01&to=2026-11-01' };
      for (const op of ops) {
        const r = await main.get(op.path + (required[op.operationId] ?? ''));
        expect(r.status, op.operationId).toBe(403);
        expect(r.body.detail).toBe(
          `Company accounts work on their company's address. Continue at http://acme.localhost:${t.port}/dashboard.`,
        );
      }
      // the audit call of the redirect flow still works there
      expect((await main.post('/api/v1/audit', { event: 'feature_access' })).status).toBe(202);
    });

    it('serves flags to any signed-in user with the spec defaults', async () => {
      const r = await viewerClient.get('/api/v1/admin/flags', { host: acmeHost });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        ENABLE_TENANT_SWITCH: true,
        ENABLE_USER_MGMT: true,
        ENABLE_GLOBAL_EXPORT: false,
        ENABLE_REAL_TIME_METRICS: false,
        ENABLE_ADVANCED_ANALYTICS: false,
        ENABLE_MULTI_TENANT_VIEW: true,
      });
      expect(Object.keys(r.body)).toHaveLength(15);
      expect((await t.client().get('/api/v1/admin/flags')).status).toBe(401);
    });

    it('lets a super admin change flags, audited', async () => {
      const r = await root.put('/api/v1/admin/flags', { ENABLE_GLOBAL_EXPORT: true, ENABLE_REPORTS: false });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ ENABLE_GLOBAL_EXPORT: true, ENABLE_REPORTS: false });
      expect((await viewerClient.get('/api/v1/admin/flags', { host: acmeHost })).body).toMatchObject({
        ENABLE_GLOBAL_EXPORT: true,
        ENABLE_REPORTS: false,
      });
      const unknown = await root.put('/api/v1/admin/flags', { ENABLE_NOTHING: true });
      expect(unknown.status).toBe(400);
      expect(unknown.body.detail).toMatch(/^Unknown feature flag: ENABLE_NOTHING\./);
      const audit = await root.get('/api/v1/admin/audit?event=settings_update');
      expect(audit.body.items[0]).toMatchObject({
        event: 'settings_update',
        userId: rootUser.id,
        details: { feature_flags: { ENABLE_GLOBAL_EXPORT: true, ENABLE_REPORTS: false } },
      });
      await root.put('/api/v1/admin/flags', { ENABLE_GLOBAL_EXPORT: false, ENABLE_REPORTS: true });
    });

    it('summarises the platform for super admins', async () => {
      const empty = await root.get('/api/v1/admin/dashboard-summary');
      expect(empty.body).toMatchObject({ monitors: 0, open_incidents: 0 });
      const m = await acmeAdminClient.post(
        '/api/v1/monitors',
        { name: 'Site', type: 'http', url: 'https://example.com/', interval_seconds: 60, is_public: false },
        { host: acmeHost },
      );
      expect(m.status).toBe(201);
      const now = Date.now();
      const incident = (id: string, resolved: number | null) => ({
        id,
        company_id: acme.id,
        monitor_id: null,
        title: 'Down',
        severity: 'high' as const,
        status: (resolved ? 'resolved' : 'open') as never,
        started_at: now,
        resolved_at: resolved,
        created_by: null,
        created_at: now,
        updated_at: now,
      });
      await t.services.db.k
        .insertInto('incidents')
        .values([incident(`${kind}-i1`, null), incident(`${kind}-i2`, now)])
        .execute();
      const r = await root.get('/api/v1/admin/dashboard-summary');
      expect(r.status).toBe(200);
      const companies = (await root.get('/api/v1/admin/companies')).body.length;
      const users = (await root.get('/api/v1/admin/users')).body.length;
      expect(r.body).toMatchObject({
        companies,
        users,
        monitors: 1,
        open_incidents: 1,
        health: { status: 'ok', database: { kind, status: 'up' } },
      });
    });
  });
});

describe.each(DB_KINDS)('operator flag overrides on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: kind, env: { FLAG_ENABLE_GLOBAL_EXPORT: 'true', FLAG_ENABLE_USER_MGMT: 'false' } });
  });
  afterAll(async () => t?.close());

  it('wins over defaults and cannot be changed from the console', async () => {
    const admin = await seedUser(t.services, { userType: 1 });
    const c = t.client();
    await signIn(c, admin);
    expect((await c.get('/api/v1/admin/flags')).body).toMatchObject({ ENABLE_GLOBAL_EXPORT: true, ENABLE_USER_MGMT: false });
    const r = await c.put('/api/v1/admin/flags', { ENABLE_USER_MGMT: true });
    expect(r.status).toBe(409);
    expect(r.body.detail).toBe('ENABLE_USER_MGMT is set by the operator (FLAG_ENABLE_USER_MGMT) and cannot be changed here.');
    expect((await c.get('/api/v1/admin/flags')).body.ENABLE_USER_MGMT).toBe(false);
  });
});

/** Rows of every kind a company owns, written straight to the tables (telemetry, checks, incidents, ...). */
async function seedCompanyData(t: TestApp, companyId: string, monitorId: string, userId: string): Promise<void> {
  const k = t.services.db.k;
  const now = Date.now();
  await k
    .insertInto('check_results')
    .values({
      monitor_id: monitorId,
      checked_at: now,
      company_id: companyId,
      status: 'operational',
      response_time_ms: 12,
      http_code: 200,
      error: null,
      timings: null,
      cert_expires_at: null,
    })
    .execute();
  const rollup = {
    monitor_id: monitorId,
    company_id: companyId,
    min_response_ms: 1,
    max_response_ms: 2,
    response_sketch: '',
    p95_response_ms: 2,
    last_status: 'operational' as const,
    last_http_code: 200,
    last_checked_at: now,
  };
  await insertRollups(t.services.db, 'hourly', { ...rollup, hour_start: now - (now % 3_600_000) });
  await insertRollups(t.services.db, 'daily', { ...rollup, day_start: now - (now % 86_400_000) });
  const incidentId = newId();
  await k
    .insertInto('incidents')
    .values({
      id: incidentId,
      company_id: companyId,
      monitor_id: monitorId,
      title: 'Down',
      severity: 'high',
      status: 'open',
      started_at: now,
      resolved_at: null,
      created_by: userId,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await k
    .insertInto('incident_updates')
    .values({
      id: newId(),
      incident_id: incidentId,
      company_id: companyId,
      status: 'open',
      message: 'Looking',
      created_by: userId,
      created_at: now,
    })
    .execute();
  await k
    .insertInto('maintenance_windows')
    .values({
      id: newId(),
      company_id: companyId,
      monitor_id: monitorId,
      title: 'Window',
      description: null,
      starts_at: now,
      ends_at: now + 60_000,
      created_at: now,
    })
    .execute();
  await k
    .insertInto('notifications')
    .values({
      id: newId(),
      company_id: companyId,
      user_id: userId,
      title: 'Hi',
      message: 'm',
      details: null,
      metadata: null,
      severity: 'info',
      type: 'system',
      action_url: null,
      dedupe_key: null,
      created_at: now,
    })
    .execute();
  await k
    .insertInto('api_keys')
    .values({
      id: newId(),
      company_id: companyId,
      name: 'k',
      scope: 'ingest',
      prefix: 'swk_x',
      key_hash: newId().replace(/-/g, ''),
      created_by: userId,
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  await spansRepo(t.services.db).insertNew([
    {
      company_id: companyId,
      trace_id: 'a'.repeat(32),
      span_id: 'b'.repeat(16),
      parent_span_id: null,
      name: 'GET /',
      service: 'web',
      kind: 2,
      start_us: now * 1000,
      duration_ms: 5,
      status_code: 2,
      http_status: 500,
      is_error: true,
      is_request: true,
      error_message: 'boom',
      attributes: '{}',
      events: '[]',
    },
  ]);
  await redRepo(t.services.db).add([
    { company_id: companyId, minute_ms: now - (now % 60_000), service: 'web', operation: 'GET /', requests: 3, errors: 1, sum_ms: 15 },
  ]);
}

/**
 * Every row, in every table but the audit trail, with one of these ids in any text column:
 * new tables are covered without naming them here.
 */
async function rowsMentioning(t: TestApp, ids: string[]): Promise<string[]> {
  const k = t.services.db.k;
  const columns: Array<{ table_name: string; column_name: string }> =
    t.services.db.kind === 'postgres'
      ? (
          await sql<{ table_name: string; column_name: string }>`select table_name, column_name from information_schema.columns
        where table_schema = current_schema() and data_type in ('character varying', 'text')`.execute(k)
        ).rows
      : (
          await sql<{ table_name: string; column_name: string }>`select m.name as table_name, p.name as column_name
        from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table' and (p.type like 'varchar%' or p.type = 'text')`.execute(
            k,
          )
        ).rows;
  const byTable = new Map<string, string[]>();
  for (const c of columns) {
    if (c.table_name === 'audit_events' || c.table_name.startsWith('kysely_') || c.table_name.startsWith('sqlite_')) continue;
    byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), c.column_name]);
  }
  const found: string[] = [];
  for (const [table, cols] of [...byTable].sort()) {
    for (const col of cols) {
      const r = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(col)} in (${sql.join(ids)})`.execute(
        k,
      );
      const n = Number(r.rows[0].n);
      if (n > 0) found.push(`${table}.${col}: ${n}`);
    }
  }
  return found;
}
