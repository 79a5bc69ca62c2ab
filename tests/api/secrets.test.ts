// Company secrets through the API (issue 29), on both databases: company admins create, replace
// and delete them, any member lists them by name with the monitors that use them, the value is
// never answered and is sealed in its row; viewers cannot write (403); another company's secrets
// are invisible (tenant scope); a secret a monitor names cannot be deleted (409 naming it) and a
// monitor cannot name one the company lacks (the steps field says which). Audited by name only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../support/fixtures.ts';

const VALUE = 'hunter2-Secret-Value';

describe.each(DB_KINDS)('company secrets on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let viewer: ApiClient;
  let other: ApiClient;
  let acme: { id: string };

  beforeAll(async () => {
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true' }, logLevel: 'info' });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme', plan: 'enterprise' });
    const globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }), 'acme.localhost');
    viewer = t.client();
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }), 'acme.localhost');
    other = t.client();
    await signIn(other, await seedUser(t.services, { userType: 2, companyId: globex.id }), 'globex.localhost');
  });
  afterAll(async () => {
    await t?.close();
  });

  const on = { host: 'acme.localhost' };
  const flowMonitor = (name: string, secret: string) => ({
    name,
    type: 'api_flow',
    interval_seconds: 300,
    steps: [
      {
        name: 'Sign in',
        method: 'POST',
        url: 'http://127.0.0.1:9/api/login',
        headers: { authorization: `Bearer {{secrets.${secret}}}` },
        assertions: [{ source: 'status', comparison: 'equals', target: '200' }],
      },
    ],
  });

  it('stores a secret sealed, lists it by name to members, and never answers its value', async () => {
    const put = await admin.put('/api/v1/secrets/SHOP_TOKEN', { value: VALUE }, on);
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ name: 'SHOP_TOKEN', created_at: expect.any(String), updated_at: expect.any(String), used_by: [] });
    const replaced = await admin.put('/api/v1/secrets/SHOP_TOKEN', { value: `${VALUE}-2` }, on);
    expect(replaced.body.created_at).toBe(put.body.created_at);
    const list = await viewer.get('/api/v1/secrets', on);
    expect(list.status).toBe(200);
    expect(list.body.map((s: { name: string }) => s.name)).toEqual(['SHOP_TOKEN']);
    for (const text of [put.text, replaced.text, list.text]) expect(text).not.toContain(VALUE);
    const row = await t.services.db.k.selectFrom('company_secrets').selectAll().where('company_id', '=', acme.id).executeTakeFirstOrThrow();
    expect(row.value).toMatch(/^sealed:v1:/);
    expect(row.value).not.toContain(VALUE);
    const audit = await t.services.db.k.selectFrom('audit_events').select('details').where('event', '=', 'settings_update').execute();
    expect(audit.map((a) => JSON.parse(String(a.details)))).toEqual([
      { secret: 'SHOP_TOKEN', action: 'create' },
      { secret: 'SHOP_TOKEN', action: 'replace' },
    ]);
  });

  it('refuses viewers (403), bad names and empty values (400); another company sees none of it', async () => {
    expect((await viewer.put('/api/v1/secrets/VIEWER_TRY', { value: 'x' }, on)).status).toBe(403);
    expect((await viewer.delete('/api/v1/secrets/SHOP_TOKEN', on)).status).toBe(403);
    expect((await admin.put('/api/v1/secrets/lower_case', { value: 'x' }, on)).status).toBe(400);
    expect((await admin.put('/api/v1/secrets/EMPTY', { value: '' }, on)).status).toBe(400);
    const theirs = await other.get('/api/v1/secrets', { host: 'globex.localhost' });
    expect(theirs.body).toEqual([]);
    expect((await other.delete('/api/v1/secrets/SHOP_TOKEN', { host: 'globex.localhost' })).status).toBe(404);
    // Globex cannot name Acme's secret in a monitor either.
    const m = await other.post('/api/v1/monitors', flowMonitor('Globex flow', 'SHOP_TOKEN'), { host: 'globex.localhost' });
    expect(m.status).toBe(400);
    expect(m.body.errors).toEqual({ steps: 'Secret SHOP_TOKEN is not defined: add it under Settings, Secrets' });
  });

  it('names the monitors that use a secret and refuses to delete it while they do', async () => {
    const missing = await admin.post('/api/v1/monitors', flowMonitor('Missing', 'NOPE'), on);
    expect(missing.body.errors).toEqual({ steps: 'Secret NOPE is not defined: add it under Settings, Secrets' });
    const m = await admin.post('/api/v1/monitors', flowMonitor('Shop flow', 'SHOP_TOKEN'), on);
    expect(m.status).toBe(201);
    // The reference is shown as written; the value never.
    expect(m.body.steps[0].headers).toEqual({ authorization: 'Bearer {{secrets.SHOP_TOKEN}}' });
    expect((await viewer.get('/api/v1/secrets', on)).body[0].used_by).toEqual([m.body.id]);
    const refused = await admin.delete('/api/v1/secrets/SHOP_TOKEN', on);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('Secret SHOP_TOKEN is used by the monitor "Shop flow": change it first.');
    const edited = await admin.put(`/api/v1/monitors/${m.body.id}`, { steps: [{ name: 'Open', url: 'http://127.0.0.1:9/' }] }, on);
    expect(edited.status).toBe(200);
    expect((await admin.delete('/api/v1/secrets/SHOP_TOKEN', on)).status).toBe(204);
    expect((await viewer.get('/api/v1/secrets', on)).body).toEqual([]);
    expect((await admin.delete('/api/v1/secrets/SHOP_TOKEN', on)).status).toBe(404);
    // The server's log (every request, at info) never held the value.
    expect(t.errorLog.join('\n')).toContain('/api/v1/secrets/SHOP_TOKEN');
    expect(t.errorLog.join('\n')).not.toContain(VALUE);
  });
});
