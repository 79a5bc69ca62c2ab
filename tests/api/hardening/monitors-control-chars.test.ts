// Control characters in monitor, incident and maintenance text (issue 11): one U+0001 made every
// RSS/Atom feed of the status page unreadable and a badge an empty image. Input refuses C0
// controls (tab, line feed and carriage return excepted), DEL and other characters XML cannot
// carry, with a message on the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

/** The message for a field labelled `label`: it names the character and where it is. */
const refused = (label: string) =>
  expect.stringMatching(new RegExp(`^${label} must not contain control characters: U\\+[0-9A-F]{4} \\(.+\\) at character \\d+\\.$`));

const BAD = [
  'a\u0001b',
  'nul\u0000',
  'bell\u0007',
  'esc\u001b[31m',
  'del\u007f',
  'ff\u000c',
  'vt\u000b',
  'lone \ud800 surrogate',
  'non\uffffchar',
];

describe.each(DB_KINDS)('control characters in text on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let monitorId: string;

  beforeAll(async () => {
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '60' } });
    const acme = await seedCompany(t.services, { plan: 'enterprise' });
    admin = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    const m = await admin.post('/api/v1/monitors', {
      name: 'Website',
      type: 'http',
      url: 'http://127.0.0.1:9/',
      interval_seconds: 3600,
      is_public: true,
    });
    monitorId = m.body.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(BAD)('refuses %j in monitor text fields, on create and on update', async (bad) => {
    const base = { name: 'Website', type: 'http', url: 'http://127.0.0.1:9/', interval_seconds: 3600, is_public: true };
    const cases: Array<[Record<string, unknown>, string, unknown]> = [
      [{ name: bad }, 'name', refused('Name')],
      [{ keyword: bad }, 'keyword', refused('Keyword')],
      [{ json_path: `$.${bad}` }, 'json_path', refused('JSON path')],
      [{ json_expected: bad }, 'json_expected', refused('Expected JSON value')],
    ];
    for (const [over, field, text] of cases) {
      const c = await admin.post('/api/v1/monitors', { ...base, ...over });
      expect(c.status, JSON.stringify(over)).toBe(400);
      expect(c.body.errors).toEqual({ [field]: text });
      const u = await admin.put(`/api/v1/monitors/${monitorId}`, over);
      expect(u.status).toBe(400);
      expect(u.body.errors).toEqual({ [field]: text });
    }
    const header = await admin.post('/api/v1/monitors', { ...base, headers: { 'X-Token': bad } });
    expect(header.body.errors).toEqual({ headers: 'Header "X-Token" is not allowed' });
    const dns = await admin.post('/api/v1/monitors', {
      name: 'dns',
      type: 'dns',
      host: 'example.com',
      expected_values: ['ok', bad],
      interval_seconds: 3600,
      is_public: false,
    });
    expect(dns.body.errors).toEqual({ expected_values: refused('Expected value 2') });
    expect((await admin.get(`/api/v1/monitors/${monitorId}`)).body.name).toBe('Website');
  });

  it.each(BAD)('refuses %j in incidents and their updates', async (bad) => {
    const title = await admin.post('/api/v1/incidents', { title: `Outage ${bad}`, severity: 'high', message: 'Looking into it' });
    expect(title.status).toBe(400);
    expect(title.body.errors).toEqual({ title: refused('Title') });
    const message = await admin.post('/api/v1/incidents', { title: 'Outage', severity: 'high', message: bad });
    expect(message.status).toBe(400);
    expect(message.body.errors).toEqual({ message: refused('Message') });
    const ok = await admin.post('/api/v1/incidents', { title: 'Outage', severity: 'high', message: 'Looking into it' });
    const update = await admin.post(`/api/v1/incidents/${ok.body.id}/updates`, { status: 'resolved', message: bad });
    expect(update.status).toBe(400);
    expect(update.body.errors).toEqual({ message: refused('Message') });
    expect((await admin.get(`/api/v1/incidents/${ok.body.id}`)).body).toMatchObject({
      status: 'investigating',
      updates: [{ message: 'Looking into it' }],
    });
    await admin.post(`/api/v1/incidents/${ok.body.id}/updates`, { status: 'resolved', message: 'Fixed' });
  });

  it.each(BAD)('refuses %j in maintenance windows', async (bad) => {
    const window = {
      title: 'Database upgrade',
      description: 'Short downtime',
      starts_at: '2030-01-01T00:00:00Z',
      ends_at: '2030-01-01T01:00:00Z',
      monitor_id: monitorId,
    };
    const title = await admin.post('/api/v1/maintenance-windows', { ...window, title: bad });
    expect(title.status).toBe(400);
    expect(title.body.errors).toEqual({ title: refused('Title') });
    const description = await admin.post('/api/v1/maintenance-windows', { ...window, description: bad });
    expect(description.status).toBe(400);
    expect(description.body.errors).toEqual({ description: refused('Description') });
  });

  it('keeps tabs and line breaks in multi-line text, and accepts ordinary Unicode', async () => {
    const inc = await admin.post('/api/v1/incidents', {
      title: 'Panne de la base — 数据库',
      severity: 'low',
      message: 'Line one\r\nLine two\n\tindented',
    });
    expect(inc.status).toBe(201);
    expect(inc.body.updates[0].message).toBe('Line one\r\nLine two\n\tindented');
    const w = await admin.post('/api/v1/maintenance-windows', {
      title: 'Upgrade 🛠',
      description: 'Step 1\nStep 2',
      starts_at: '2030-01-01T00:00:00Z',
      ends_at: '2030-01-01T01:00:00Z',
      monitor_id: monitorId,
    });
    expect(w.status).toBe(201);
    expect((await admin.put(`/api/v1/monitors/${monitorId}`, { name: 'Site – prod 🌍' })).body.name).toBe('Site – prod 🌍');
  });
});
