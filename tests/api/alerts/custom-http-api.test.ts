// The custom HTTP and Jira channels through the API on both databases, with private targets
// open only for loopback (ALLOW_PRIVATE_TARGETS=127.0.0.0/8): a template refused at save names
// its field; an internal address outside that range or cloud metadata is refused for the URL; the
// secret headers are never answered, kept when an edit leaves them out, and sent with Send test
// through the real outbox to the admin's loopback server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { json, startReceiver, type Receiver } from '../../fixtures/receivers/receiver-server.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';

const TOKEN = 'Bearer t0k3n-for-the-admins-server';

describe.each(DB_KINDS)('custom HTTP channel through the API on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver((req) =>
      req.headers.authorization === TOKEN
        ? json(200, { ok: true })
        : json(401, { error: 'token' }, `authorization ${req.headers.authorization}`),
    );
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: '127.0.0.0/8' } });
    const acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }), 'acme.localhost');
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const on = { host: 'acme.localhost' };
  const channel = (config: Record<string, unknown>) => ({ name: 'Our server', type: 'custom-http', config, events: ['incident.opened'] });

  it('refuses a bad template or an internal address, naming the field', async () => {
    const body = await admin.post('/api/v1/alert-channels', channel({ url: `${receiver.origin}/a`, body: '{"t": {{title}}}' }), on);
    expect(body.status).toBe(400);
    expect(Object.keys(body.body.errors)).toEqual(['config.body']);
    const unknown = await admin.post('/api/v1/alert-channels', channel({ url: `${receiver.origin}/a?x={{titel}}` }), on);
    expect(unknown.body.errors).toEqual({ 'config.url': 'URL: Unknown variable {{titel}}; see the list of variables.' });
    for (const url of ['http://10.0.0.5/hook?m={{monitor.name}}', 'http://169.254.169.254/latest']) {
      const r = await admin.post('/api/v1/alert-channels', channel({ url }), on);
      expect(r.status, url).toBe(400);
      expect(Object.keys(r.body.errors)).toEqual(['config.url']);
    }
    const jira = await admin.post(
      '/api/v1/alert-channels',
      {
        name: 'Jira',
        type: 'jira',
        config: { url: 'http://169.254.169.254', email: 'ops@acme.example.com', api_token: 'x', project_key: 'OPS' },
        events: ['incident.opened'],
      },
      on,
    );
    expect(Object.keys(jira.body.errors)).toEqual(['config.url']);
  });

  it('never answers the secret headers, keeps them on an edit that leaves them out, and sends them', async () => {
    const created = await admin.post(
      '/api/v1/alert-channels',
      channel({
        method: 'PUT',
        url: `${receiver.origin}/alerts/{{delivery_id}}`,
        secret_headers: `Authorization: ${TOKEN}`,
        body: '{"t": "{{title}}"}',
      }),
      on,
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.config).toEqual({
      method: 'PUT',
      url: `${receiver.origin}/alerts/{{delivery_id}}`,
      headers: null,
      body: '{"t": "{{title}}"}',
    });
    expect(created.text).not.toContain('t0k3n');
    const edited = await admin.put(
      `/api/v1/alert-channels/${created.body.id}`,
      {
        config: {
          method: 'PUT',
          url: `${receiver.origin}/alerts/{{delivery_id}}`,
          headers: 'X-Team: ops',
          body: '{"t": "{{title}}", "e": "{{event}}"}',
        },
      },
      on,
    );
    expect(edited.status, edited.text).toBe(200);
    expect(edited.text).not.toContain('t0k3n');

    const test = await admin.post(`/api/v1/alert-channels/${created.body.id}/test`, {}, on);
    expect(test.status).toBe(202);
    await runDeliveries(t.services, { holder: 'api-test' });
    expect(receiver.refusals()).toEqual([]);
    const [got] = receiver.accepted();
    expect(got.request).toMatchObject({ method: 'PUT', path: `/alerts/${test.body.delivery_id}` });
    expect(got.request.headers['x-team']).toBe('ops');
    expect(JSON.parse(got.request.body)).toEqual({ t: 'Test alert for "Our server"', e: 'test' });
    const [d] = (await admin.get(`/api/v1/alert-deliveries?channel_id=${created.body.id}`, on)).body;
    expect(d).toMatchObject({ state: 'delivered', attempts: 1 });
  });
});
