// Client audit events cannot pass for the server's own records (sign-ins, user and tenant
// changes, ...) nor smuggle control characters (forged log lines, terminal escapes, reversed
// text) into the audit log a super admin reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { CLIENT_AUDIT_EVENTS } from '../../../src/lib/audit-events.ts';

describe('client audit events', () => {
  let t: TestApp;
  let root: ApiClient;
  let viewer: ApiClient;
  const countClientEvents = async () =>
    Number(
      (
        await t.services.db.k
          .selectFrom('audit_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('source', '=', 'client')
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite' });
    root = t.client();
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    const acme = await seedCompany(t.services, { subdomain: 'acme' });
    viewer = t.client();
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }), 'acme.localhost');
  });
  afterAll(async () => t?.close());

  it.each([
    'user_login',
    'user_logout',
    'session_expired',
    'user_create',
    'user_role_change',
    'tenant_delete',
    'monitor_delete',
    'settings_update',
    'security_scan_trigger',
  ])('refuses the server event name %s from a client', async (event) => {
    const before = await countClientEvents();
    const r = await viewer.post('/api/v1/audit', { event, details: { user_id: 'someone' } }, { host: 'acme.localhost' });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('Invalid request body: event must be equal to one of the allowed values');
    expect(await countClientEvents()).toBe(before);
  });

  it.each(CLIENT_AUDIT_EVENTS)('still records the client event %s', async (event) => {
    expect((await viewer.post('/api/v1/audit', { event, details: { note: 'plain text' } }, { host: 'acme.localhost' })).status).toBe(202);
  });

  it.each([
    ['a newline in a value', { message: 'ok\nuser_login admin@example.com' }],
    ['a carriage return in a nested value', { error: { stack: ['at x', 'line\r\nforged'] } }],
    ['a terminal escape', { message: '\u001b[2Jcleared' }],
    ['a NUL byte', { message: 'a\u0000b' }],
    ['a control character in a key', { 'k\u0007ey': 'bell' }],
    ['a C1 control character', { message: 'a\u0085b' }],
    ['a right-to-left override', { file: 'invoice\u202Efdp.exe' }],
    ['a line separator', { message: 'a\u2028b' }],
  ])('refuses %s in the details', async (_what, details) => {
    const before = await countClientEvents();
    const r = await viewer.post('/api/v1/audit', { event: 'error_occurred', details }, { host: 'acme.localhost' });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('Audit events must not contain control characters.');
    expect(await countClientEvents()).toBe(before);
  });

  it('refuses control characters in the client timestamp too, and keeps tabs-free plain text', async () => {
    const r = await viewer.post(
      '/api/v1/audit',
      { event: 'error_occurred', timestamp: '2026-01-01T00:00:00Z\n' },
      { host: 'acme.localhost' },
    );
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('Audit events must not contain control characters.');
    const ok = await viewer.post(
      '/api/v1/audit',
      { event: 'error_occurred', details: { message: 'Ünïcode — “quotes” 日本語 ok' } },
      { host: 'acme.localhost' },
    );
    expect(ok.status).toBe(202);
    const log = await root.get('/api/v1/admin/audit?event=error_occurred');
    expect(log.body.items.map((e: any) => e.details.message)).toContain('Ünïcode — “quotes” 日本語 ok');
  });
});
