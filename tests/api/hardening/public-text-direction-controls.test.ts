// Unicode direction controls (marks, embeddings, overrides, isolates) and C1 controls in text
// the public reads (issue 25 item 14): published as typed they reorder what visitors see on the
// status page, in its feeds and in alert messages. Every public text refuses them on input, as
// it refuses C0 controls, with a message naming the character and where it is; text in
// right-to-left scripts without such controls is accepted. Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

/** [the character, how the message names it] */
const REFUSED: Array<[string, string]> = [
  ['\u202E', 'U+202E (right-to-left override, a text direction control)'],
  ['\u202A', 'U+202A (left-to-right embedding, a text direction control)'],
  ['\u202C', 'U+202C (pop directional formatting, a text direction control)'],
  ['\u2066', 'U+2066 (left-to-right isolate, a text direction control)'],
  ['\u2069', 'U+2069 (pop directional isolate, a text direction control)'],
  ['\u200E', 'U+200E (left-to-right mark, a text direction control)'],
  ['\u200F', 'U+200F (right-to-left mark, a text direction control)'],
  ['\u0080', 'U+0080 (C1 control character)'],
  ['\u0085', 'U+0085 (C1 control character)'],
  ['\u009B', 'U+009B (C1 control character)'],
  ['\u009F', 'U+009F (C1 control character)'],
];

describe.each(DB_KINDS)('direction and C1 controls in public text on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let root: ApiClient;
  let acme: { id: string; subdomain: string };
  let acmeHost: string;
  let monitorId: string;
  let incidentId: string;

  beforeAll(async () => {
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '60' } });
    acme = await seedCompany(t.services, { name: 'Acme', plan: 'enterprise' });
    acmeHost = `${acme.subdomain}.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, acmeHost);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    root = t.client();
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    const m = await admin.post('/api/v1/monitors', {
      name: 'Website',
      type: 'http',
      url: 'http://127.0.0.1:9/',
      interval_seconds: 3600,
      is_public: true,
    });
    monitorId = m.body.id;
    incidentId = (await admin.post('/api/v1/incidents', { title: 'Outage', severity: 'high', message: 'Looking into it' })).body.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Each public text with a value holding `c` at character 5 ('Pay🌍' is four characters). */
  const attempts = (c: string) => {
    const v = `Pay🌍${c}llor`;
    return [
      [
        'monitor name',
        'name',
        () => admin.post('/api/v1/monitors', { name: v, type: 'http', url: 'http://127.0.0.1:9/', interval_seconds: 3600 }),
      ],
      ['monitor rename', 'name', () => admin.put(`/api/v1/monitors/${monitorId}`, { name: v })],
      ['incident title', 'title', () => admin.post('/api/v1/incidents', { title: v, severity: 'high', message: 'Looking into it' })],
      ['incident message', 'message', () => admin.post('/api/v1/incidents', { title: 'Outage', severity: 'high', message: v })],
      ['incident update', 'message', () => admin.post(`/api/v1/incidents/${incidentId}/updates`, { status: 'identified', message: v })],
      [
        'maintenance title',
        'title',
        () =>
          admin.post('/api/v1/maintenance-windows', {
            title: v,
            starts_at: '2030-01-01T00:00:00Z',
            ends_at: '2030-01-01T01:00:00Z',
            monitor_id: monitorId,
          }),
      ],
      [
        'maintenance description',
        'description',
        () =>
          admin.post('/api/v1/maintenance-windows', {
            title: 'Upgrade',
            description: v,
            starts_at: '2030-01-01T00:00:00Z',
            ends_at: '2030-01-01T01:00:00Z',
            monitor_id: monitorId,
          }),
      ],
      ['company name (profile)', 'name', () => admin.put(`/api/v1/companies/${acme.id}/profile`, { name: v })],
      [
        'company name (new tenant)',
        'name',
        () => root.post('/api/v1/admin/companies', { name: v, email: 'hello@initech.example.com', subdomain: 'initech' }),
      ],
      [
        'company name (edit tenant)',
        'name',
        () => root.put(`/api/v1/admin/companies/${acme.id}`, { name: v, email: 'contact@acme.example.com', subdomain: acme.subdomain }),
      ],
      [
        'public name on the status page',
        'ungrouped.0.public_name',
        () =>
          admin.put('/api/v1/status-page/settings', {
            ungrouped: [{ monitor_id: monitorId, is_public: true, public_name: v }],
            groups: [],
          }),
      ],
      [
        'component group name',
        'groups.0.name',
        () =>
          admin.put('/api/v1/status-page/settings', {
            ungrouped: [],
            groups: [{ name: v, monitors: [{ monitor_id: monitorId, is_public: true, public_name: null }] }],
          }),
      ],
      [
        'signup name',
        'name',
        () => t.client().post('/api/v1/auth/signup', { name: v, email: 'new@example.com', password: 'Long-enough-pass-1' }),
      ],
    ] as const;
  };

  const labels: Record<string, string> = {
    name: 'Name',
    title: 'Title',
    message: 'Message',
    description: 'Description',
    'ungrouped.0.public_name': 'Public name',
    'groups.0.name': 'Group name',
  };

  it.each(REFUSED)('refuses %j in every public text, naming the character and its place', async (c, named) => {
    for (const [what, field, send] of attempts(c)) {
      const r = await send();
      expect(r.status, `${what}: ${r.text}`).toBe(400);
      const label = what.startsWith('company name') ? 'Company Name' : labels[field];
      const text = `${label} must not contain control characters: ${named} at character 5.`;
      expect(r.body.errors?.[field], `${what}: ${r.text}`).toBe(text);
    }
    // nothing of it was stored: the page and its feed read as before
    const page = await t.client().get('/api/v1/public/public-status/' + acme.subdomain);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(c);
    expect(page.body.company.name).toBe('Acme');
    expect((await admin.get(`/api/v1/monitors/${monitorId}`)).body.name).toBe('Website');
  });

  it('accepts right-to-left scripts, emoji and no-break spaces without direction controls', async () => {
    const hebrew = 'שרת התשלומים';
    const arabic = 'خادم الدفع';
    expect((await admin.put(`/api/v1/monitors/${monitorId}`, { name: `${hebrew} 🌍` })).body.name).toBe(`${hebrew} 🌍`);
    const inc = await admin.post('/api/v1/incidents', { title: arabic, severity: 'low', message: `${arabic}\u00a0(API)` });
    expect(inc.status, inc.text).toBe(201);
    expect(inc.body.title).toBe(arabic);
    const layout = await admin.put('/api/v1/status-page/settings', {
      ungrouped: [],
      groups: [{ name: 'خدمات', monitors: [{ monitor_id: monitorId, is_public: true, public_name: 'الدفع' }] }],
    });
    expect(layout.status, layout.text).toBe(200);
  });
});
