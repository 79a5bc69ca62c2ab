// The alert channel and delivery calls over HTTP on both databases: who may do what (company
// admins manage their own company's channels, viewers see none, only super admins delete), a
// webhook's secret shown once and rotatable, Send test through the outbox with its receipt and
// Retry, another company's channels and deliveries answering 404, and tenant URLs at internal
// addresses refused (at create for literal addresses, at send for names) unless private targets
// are allowed.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAME_REFUSED } from '../../../src/server/net/ssrf.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { startTestApp, type ApiResponse, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';

type Answer = Promise<ApiResponse<any>>;
type As = {
  get: (p: string) => Answer;
  post: (p: string, b?: unknown) => Answer;
  put: (p: string, b?: unknown) => Answer;
  del: (p: string) => Answer;
};

async function as(t: TestApp, user: { email: string; password: string }, host = 'localhost'): Promise<As> {
  const c = t.client();
  await signIn(c, user, host === 'localhost' ? undefined : host);
  const o = host === 'localhost' ? {} : { host };
  return {
    get: (p) => c.get(p, o),
    post: (p, b) => c.post(p, b ?? {}, o),
    put: (p, b) => c.put(p, b, o),
    del: (p) => c.delete(p, o),
  };
}

describe.each(DB_KINDS)('alert channels API on %s', (kind) => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let acmeAdmin: As;
  let acmeViewer: As;
  let globexAdmin: As;
  let root: As;
  let acmeId: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestApp({ db: kind });
    const acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    const globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    acmeId = acme.id;
    acmeAdmin = await as(t, await seedUser(t.services, { userType: 2, companyId: acme.id }), 'acme.localhost');
    acmeViewer = await as(t, await seedUser(t.services, { userType: 3, companyId: acme.id }), 'acme.localhost');
    globexAdmin = await as(t, await seedUser(t.services, { userType: 2, companyId: globex.id }), 'globex.localhost');
    root = await as(t, await seedUser(t.services, { userType: 1 }));
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const hook = (url: string, over: Record<string, unknown> = {}) => ({
    name: 'Ops hook',
    type: 'webhook',
    config: { url },
    events: ['incident.opened'],
    ...over,
  });

  it('refuses a webhook URL at an internal literal address when private targets are not allowed', async () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://10.0.0.5/hook',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
      'http://localhost/x',
    ]) {
      const r = await acmeAdmin.post('/api/v1/alert-channels', hook(url));
      expect(r.status, url).toBe(400);
      expect(r.body.errors).toHaveProperty(['config.url']);
    }
    const bad = await acmeAdmin.post('/api/v1/alert-channels', hook('ftp://example.com/x'));
    expect(bad.status).toBe(400);
  });

  it('refuses at send time a host name that resolves to an internal address; the receiver gets nothing', async () => {
    const port = new URL(receiver.url()).port;
    t.services.monitoring = { ...t.services.monitoring, resolve: async () => [{ address: '127.0.0.1', family: 4 }] };
    const created = await acmeAdmin.post('/api/v1/alert-channels', hook(`http://hooks.example.com:${port}/sneaky`));
    expect(created.status).toBe(201);
    const test = await acmeAdmin.post(`/api/v1/alert-channels/${created.body.id}/test`);
    expect(test.status).toBe(202);
    await runDeliveries(t.services, { holder: 'api-test' });
    expect(receiver.received.filter((r) => r.path === '/sneaky')).toHaveLength(0);
    const list = await acmeAdmin.get(`/api/v1/alert-deliveries?channel_id=${created.body.id}`);
    expect(list.body[0].attempt_log[0].error).toBe(NAME_REFUSED);
  });

  describe('with private targets allowed', () => {
    let channelId: string;
    let secret: string;
    beforeAll(() => {
      t.services.config.allowPrivateTargets = true;
    });
    afterAll(() => {
      t.services.config.allowPrivateTargets = false;
    });

    it('creates a webhook channel whose answer shows the secret once; reads never show it', async () => {
      const r = await acmeAdmin.post('/api/v1/alert-channels', hook(receiver.url('/acme')));
      expect(r.status).toBe(201);
      expect(r.body.secret).toMatch(/^whsec_/);
      expect(r.body).toMatchObject({ company_id: acmeId, type: 'webhook', enabled: true, monitor_ids: null, has_secret: true });
      channelId = r.body.id;
      secret = r.body.secret;
      const got = await acmeAdmin.get(`/api/v1/alert-channels/${channelId}`);
      expect(got.status).toBe(200);
      expect(JSON.stringify(got.body)).not.toContain(secret);
      const list = await acmeAdmin.get('/api/v1/alert-channels');
      expect(JSON.stringify(list.body)).not.toContain(secret);
      const mail = await acmeAdmin.post('/api/v1/alert-channels', {
        name: 'Mail',
        type: 'email',
        config: { to: ['ops@example.com'] },
        events: ['incident.opened'],
      });
      expect(mail.status).toBe(201);
      expect(mail.body.secret).toBeUndefined();
      expect(
        (await acmeAdmin.post('/api/v1/alert-channels', { name: 'Mail', type: 'email', config: { to: ['not an address'] } })).status,
      ).toBe(400);
    });

    it("validates edits and filters: internal URLs, foreign monitors, the company of a super admin's channel", async () => {
      t.services.config.allowPrivateTargets = false;
      const edit = await acmeAdmin.put(`/api/v1/alert-channels/${channelId}`, { config: { url: 'http://192.168.1.1/x' } });
      expect(edit.status).toBe(400);
      expect(edit.body.errors).toHaveProperty(['config.url']);
      t.services.config.allowPrivateTargets = true;
      const foreign = await globexAdmin.post(
        '/api/v1/alert-channels',
        hook(receiver.url('/g'), { monitor_ids: ['not-a-monitor-of-globex'] }),
      );
      expect(foreign.status).toBe(400);
      expect(foreign.body.errors).toEqual({ monitor_ids: 'Monitor not found' });
      const noCompany = await root.post('/api/v1/alert-channels', hook(receiver.url('/r')));
      expect(noCompany.status).toBe(400);
      const forAcme = await root.post('/api/v1/alert-channels', hook(receiver.url('/r'), { company_id: acmeId, enabled: false }));
      expect(forAcme.status).toBe(201);
      expect(forAcme.body).toMatchObject({ company_id: acmeId, enabled: false });
      expect((await acmeAdmin.get(`/api/v1/alert-channels/${forAcme.body.id}`)).status).toBe(200);
      expect((await globexAdmin.get(`/api/v1/alert-channels/${forAcme.body.id}`)).status).toBe(404);
    });

    it('sends a test through the outbox, signed with the secret; rotation changes the secret', async () => {
      const r = await acmeAdmin.post(`/api/v1/alert-channels/${channelId}/test`);
      expect(r.status).toBe(202);
      await runDeliveries(t.services, { holder: 'api-test' });
      const got = receiver.received.filter((x) => x.path === '/acme');
      expect(got).toHaveLength(1);
      expect(got[0].headers['webhook-id']).toBe(r.body.delivery_id);
      expect(new Webhook(secret).verify(got[0].body, got[0].headers as Record<string, string>)).toMatchObject({ type: 'test' });

      const rotated = await acmeAdmin.post(`/api/v1/alert-channels/${channelId}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(secret);
      await acmeAdmin.post(`/api/v1/alert-channels/${channelId}/test`);
      await runDeliveries(t.services, { holder: 'api-test' });
      const last = receiver.received.filter((x) => x.path === '/acme').at(-1)!;
      expect(() => new Webhook(secret).verify(last.body, last.headers as Record<string, string>)).toThrow();
      expect(new Webhook(rotated.body.secret).verify(last.body, last.headers as Record<string, string>)).toBeTruthy();
    });

    it('lists receipts with filters and retries a failed delivery with the same id', async () => {
      receiver.always(500);
      const r = await acmeAdmin.post(`/api/v1/alert-channels/${channelId}/test`);
      await runDeliveries(t.services, { holder: 'api-test' });
      const retrying = await acmeAdmin.get(`/api/v1/alert-deliveries?state=retrying&channel_id=${channelId}`);
      expect(retrying.status).toBe(200);
      expect(retrying.body.map((d: { id: string }) => d.id)).toEqual([r.body.delivery_id]);
      receiver.always(null);
      const retry = await acmeAdmin.post(`/api/v1/alert-deliveries/${r.body.delivery_id}/retry`);
      expect(retry.status).toBe(200);
      expect(retry.body.state).toBe('pending');
      await runDeliveries(t.services, { holder: 'api-test' });
      const done = await acmeAdmin.get(`/api/v1/alert-deliveries?channel_id=${channelId}&state=delivered`);
      expect(done.body.map((d: { id: string }) => d.id)).toContain(r.body.delivery_id);
      expect((await acmeAdmin.post(`/api/v1/alert-deliveries/${r.body.delivery_id}/retry`)).status).toBe(409);
      expect((await acmeAdmin.get('/api/v1/alert-deliveries?limit=201')).status).toBe(400);
    });

    it("another company's admin cannot see, change, test, rotate or retry them (404); viewers see nothing; only super admins delete", async () => {
      expect((await globexAdmin.get(`/api/v1/alert-channels/${channelId}`)).status).toBe(404);
      expect((await globexAdmin.put(`/api/v1/alert-channels/${channelId}`, { enabled: false })).status).toBe(404);
      expect((await globexAdmin.post(`/api/v1/alert-channels/${channelId}/test`)).status).toBe(404);
      expect((await globexAdmin.post(`/api/v1/alert-channels/${channelId}/rotate-secret`)).status).toBe(404);
      const acmeDeliveries = (await acmeAdmin.get('/api/v1/alert-deliveries')).body as Array<{ id: string }>;
      expect(acmeDeliveries.length).toBeGreaterThan(0);
      expect((await globexAdmin.post(`/api/v1/alert-deliveries/${acmeDeliveries[0].id}/retry`)).status).toBe(404);
      expect((await globexAdmin.get('/api/v1/alert-channels')).body).toEqual([]);
      expect((await globexAdmin.get('/api/v1/alert-deliveries')).body).toEqual([]);

      expect((await acmeViewer.get('/api/v1/alert-channels')).status).toBe(403);
      expect((await acmeViewer.get('/api/v1/alert-deliveries')).status).toBe(403);
      expect((await acmeViewer.get(`/api/v1/alert-channels/${channelId}`)).status).toBe(403);

      const disabled = await acmeAdmin.put(`/api/v1/alert-channels/${channelId}`, { enabled: false, name: 'Ops hook (off)' });
      expect(disabled.status).toBe(200);
      expect(disabled.body).toMatchObject({ enabled: false, name: 'Ops hook (off)' });
      expect((await acmeAdmin.del(`/api/v1/alert-channels/${channelId}`)).status).toBe(403);
      expect((await root.del(`/api/v1/alert-channels/${channelId}`)).status).toBe(204);
      expect((await acmeAdmin.get(`/api/v1/alert-channels/${channelId}`)).status).toBe(404);
    });
  });
});
