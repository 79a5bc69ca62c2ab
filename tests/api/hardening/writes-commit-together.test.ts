// A change and the audit row that records it commit together or not at all, on SQLite and
// PostgreSQL. The audit write is made to fail for real (a trigger on audit_events that raises),
// and the change it would have recorded must not be there afterwards.
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';

describe.each(DB_KINDS)('a change and its audit row commit together on %s', (kind) => {
  let t: TestApp;
  let acme: { id: string; subdomain: string };
  let admin: ApiClient;
  let adminId: string;
  let root: ApiClient;

  const monitorBody = (name: string) => ({ name, type: 'http', url: 'http://127.0.0.1:9/ok', interval_seconds: 60, is_public: false });

  /** Every insert into the audit trail fails inside the database until the trigger is dropped. */
  async function refuseAuditRows(): Promise<void> {
    const k = t.services.db.k;
    if (kind === 'sqlite') {
      await sql`CREATE TRIGGER audit_refused BEFORE INSERT ON audit_events BEGIN SELECT RAISE(ABORT, 'audit refused by the test'); END`.execute(
        k,
      );
    } else {
      await sql`CREATE OR REPLACE FUNCTION audit_refused() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused by the test'; END $$`.execute(
        k,
      );
      await sql`CREATE TRIGGER audit_refused BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_refused()`.execute(k);
    }
  }
  async function acceptAuditRows(): Promise<void> {
    const k = t.services.db.k;
    if (kind === 'sqlite') await sql`DROP TRIGGER IF EXISTS audit_refused`.execute(k);
    else await sql`DROP TRIGGER IF EXISTS audit_refused ON audit_events`.execute(k);
  }

  /**
   * The request as the client would send it, without the client's contract check: a database
   * fault answers 500, which the document does not list (no input causes one).
   */
  async function send(client: ApiClient, method: string, path: string, body?: unknown) {
    const host = client.defaultHost;
    const origin = `http://${host}:${t.port}`;
    const headers: Record<string, string> = { host: `${host}:${t.port}`, origin, cookie: client.cookieHeader(host) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return rawRequest(t.baseUrl + path, method, headers, body === undefined ? undefined : JSON.stringify(body));
  }

  const monitorsNamed = async (name: string) =>
    t.services.db.k.selectFrom('monitors').select(['id', 'name']).where('company_id', '=', acme.id).where('name', '=', name).execute();
  const auditRows = async (event: string, monitorId: string) =>
    (await t.services.db.k.selectFrom('audit_events').select('details').where('event', '=', event).execute()).filter(
      (r) => (JSON.parse(r.details ?? '{}') as { monitor_id?: string }).monitor_id === monitorId,
    );

  beforeAll(async () => {
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    acme = await seedCompany(t.services, { plan: 'enterprise' });
    admin = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    root = t.client();
    const adminUser = await seedUser(t.services, { userType: 2, companyId: acme.id });
    adminId = adminUser.id;
    await signIn(admin, adminUser);
    await signIn(root, await seedUser(t.services, { userType: 1 }));
  });
  afterEach(async () => acceptAuditRows());
  afterAll(async () => t?.close());

  it('creates no monitor when its audit row cannot be written, and both once it can', async () => {
    await refuseAuditRows();
    const refused = await send(admin, 'POST', '/api/v1/monitors', monitorBody('Refused site'));
    expect(refused.status).toBe(500);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(await monitorsNamed('Refused site')).toEqual([]);

    await acceptAuditRows();
    const made = await admin.post('/api/v1/monitors', monitorBody('Accepted site'));
    expect(made.status).toBe(201);
    expect(await monitorsNamed('Accepted site')).toEqual([{ id: made.body.id, name: 'Accepted site' }]);
    expect(await auditRows('monitor_create', made.body.id)).toHaveLength(1);
  });

  it('keeps a monitor unchanged when the audit row of its update cannot be written', async () => {
    const made = await admin.post('/api/v1/monitors', monitorBody('Before update'));
    expect(made.status).toBe(201);
    await refuseAuditRows();
    const refused = await send(admin, 'PUT', `/api/v1/monitors/${made.body.id}`, { name: 'After update', is_critical: true });
    expect(refused.status).toBe(500);
    expect(await monitorsNamed('After update')).toEqual([]);
    expect((await admin.get(`/api/v1/monitors/${made.body.id}`)).body).toMatchObject({ name: 'Before update', is_critical: false });

    await acceptAuditRows();
    const updated = await admin.put(`/api/v1/monitors/${made.body.id}`, { name: 'After update', is_critical: true });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'After update', is_critical: true });
    expect(await auditRows('monitor_update', made.body.id)).toHaveLength(1);
  });

  it('deletes no monitor when the audit row of its deletion cannot be written, and both once it can', async () => {
    const made = await admin.post('/api/v1/monitors', monitorBody('To delete'));
    expect(made.status).toBe(201);
    await refuseAuditRows();
    const refused = await send(root, 'DELETE', `/api/v1/monitors/${made.body.id}`);
    expect(refused.status).toBe(500);
    expect(await monitorsNamed('To delete')).toEqual([{ id: made.body.id, name: 'To delete' }]);

    await acceptAuditRows();
    expect((await root.delete(`/api/v1/monitors/${made.body.id}`)).status).toBe(200);
    expect(await monitorsNamed('To delete')).toEqual([]);
    expect(await auditRows('monitor_delete', made.body.id)).toHaveLength(1);
  });

  // Four writes in one verb (the company row, its users' sessions, the mover's handoff code, the
  // audit row), through helpers that join the caller's transaction.
  it('keeps the company at its address, and its sessions, when the audit row of a new subdomain cannot be written', async () => {
    const handoffCodes = async () =>
      (await t.services.db.k.selectFrom('auth_codes').select('id').where('kind', '=', 'handoff').where('user_id', '=', adminId).execute())
        .length;
    const codesBefore = await handoffCodes();
    await refuseAuditRows();
    const refused = await send(admin, 'PUT', `/api/v1/companies/${acme.id}/subdomain`, { subdomain: 'acme-moved' });
    expect(refused.status).toBe(500);
    const company = await t.services.db.k.selectFrom('companies').select('subdomain').where('id', '=', acme.id).executeTakeFirstOrThrow();
    expect(company.subdomain).toBe(acme.subdomain);
    expect((await admin.get('/api/v1/auth/me')).status).toBe(200);
    expect(await handoffCodes()).toBe(codesBefore);

    await acceptAuditRows();
    const moved = await admin.put(`/api/v1/companies/${acme.id}/subdomain`, { subdomain: 'acme-moved' });
    expect(moved.status).toBe(200);
    expect(moved.body.company.subdomain).toBe('acme-moved');
    expect((await admin.get('/api/v1/auth/me')).status).toBe(401);
    expect(await handoffCodes()).toBe(codesBefore + 1);
    const audit = await t.services.db.k.selectFrom('audit_events').select('details').where('event', '=', 'tenant_update').execute();
    expect(audit.filter((r) => (JSON.parse(r.details ?? '{}') as { changed?: string[] }).changed?.includes('subdomain'))).toHaveLength(1);
  });
});
