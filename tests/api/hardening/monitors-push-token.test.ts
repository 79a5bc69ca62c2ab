// Push tokens (issue 11): the database keeps only a SHA-256 of each token, the URL is shown when
// the monitor is created or its token is replaced, and a suspended company's push URLs answer
// 404 like unknown ones and record nothing.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companiesRepo } from '../../../src/server/db/repositories/companies-repo.ts';
import type { Db } from '../../../src/server/db/connect.ts';
import { migrateToLatest } from '../../../src/server/db/migrate.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS, dbWithMigrations } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const tokenOf = (url: string) => url.split('/').pop()!;

describe.each(DB_KINDS)('push tokens on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let viewer: ApiClient;
  let acme: { id: string; subdomain: string };

  beforeAll(async () => {
    t = await startTestApp({ db: kind });
    acme = await seedCompany(t.services, { plan: 'professional' });
    const on = () => new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    admin = on();
    viewer = on();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const rawRow = async (id: string) =>
    (await t.services.db.k.selectFrom('monitors').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Record<string, unknown>;
  const createPush = () =>
    admin.post('/api/v1/monitors', { name: 'Nightly backup', type: 'push', interval_seconds: 3600, is_public: false });

  it('stores only a hash of the token: the database row holds no usable push URL', async () => {
    const m = await createPush();
    expect(m.status).toBe(201);
    const token = tokenOf(m.body.push_url);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const row = await rawRow(m.body.id);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.push_token_hash).toBe(sha256(token));
    expect((await t.client().get(`/api/v1/push/${token}`)).body).toEqual({ ok: true });
    // someone holding a copy of the database cannot push with what it holds
    expect((await t.client().get(`/api/v1/push/${String(row.push_token_hash)}`)).status).toBe(404);
  });

  it('shows the URL once: reads give null, and replacing the token shows a new one and retires the old', async () => {
    const m = await createPush();
    const old = tokenOf(m.body.push_url);
    expect((await admin.get(`/api/v1/monitors/${m.body.id}`)).body.push_url).toBeNull();
    expect((await viewer.post(`/api/v1/monitors/${m.body.id}/push-token`)).status).toBe(403);
    const r = await admin.post(`/api/v1/monitors/${m.body.id}/push-token`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: m.body.id, type: 'push' });
    const fresh = tokenOf(r.body.push_url);
    expect(fresh).not.toBe(old);
    expect((await t.client().get(`/api/v1/push/${old}`)).status).toBe(404);
    expect((await t.client().post(`/api/v1/push/${fresh}`)).status).toBe(200);
  });

  it('has no push token to replace on other kinds of monitor', async () => {
    const m = await admin.post('/api/v1/monitors', {
      name: 'db',
      type: 'tcp',
      host: 'db.example.com',
      port: 5432,
      interval_seconds: 3600,
      is_public: false,
    });
    const r = await admin.post(`/api/v1/monitors/${m.body.id}/push-token`);
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('Only push monitors have a push URL');
  });

  it('answers 404 to pushes for a suspended company and records nothing', async () => {
    const m = await createPush();
    const token = tokenOf(m.body.push_url);
    await companiesRepo(t.services.db).update(acme.id, { is_active: false });
    try {
      const anon = t.client();
      for (const r of [await anon.get(`/api/v1/push/${token}`), await anon.post(`/api/v1/push/${token}`)]) {
        expect(r.status).toBe(404);
        expect(r.body.detail).toBe('Push monitor not found');
      }
      expect((await rawRow(m.body.id)).last_push_at).toBeNull();
    } finally {
      await companiesRepo(t.services.db).update(acme.id, { is_active: true });
    }
    expect((await t.client().get(`/api/v1/push/${token}`)).status).toBe(200);
  });
});

describe.each(DB_KINDS)('the push token migration on %s', (kind) => {
  let db: Db;
  afterAll(async () => {
    await db?.close();
  });

  it('replaces stored tokens by their hash, and the URLs already handed out keep working', async () => {
    // the schema as it was before the migration
    db = await dbWithMigrations(kind, (f) => f < '0102');
    const k = db.k as unknown as import('kysely').Kysely<any>;
    await k
      .insertInto('companies')
      .values({ id: 'c1', name: 'Acme', email: 'a@a.test', subdomain: 'acme', slug: 'acme', created_at: 1, updated_at: 1 })
      .execute();
    const base = {
      company_id: 'c1',
      config: '{}',
      interval_seconds: 60,
      timeout_seconds: 10,
      next_due_at: 1,
      created_at: 1,
      updated_at: 1,
    };
    await k
      .insertInto('monitors')
      .values([
        { ...base, id: 'm1', name: 'cron', type: 'push', push_token: 'legacy-token-legacy-token-000001' },
        { ...base, id: 'm2', name: 'site', type: 'http', push_token: null },
      ])
      .execute();

    await migrateToLatest(db);
    const rows = await k.selectFrom('monitors').selectAll().orderBy('id').execute();
    expect(JSON.stringify(rows)).not.toContain('legacy-token-legacy-token-000001');
    expect(rows.map((r) => r.push_token_hash)).toEqual([sha256('legacy-token-legacy-token-000001'), null]);
    expect(rows[0]).not.toHaveProperty('push_token');
  });
});
