// Receipts of a grouped message over HTTP on both databases: three monitors going down together
// reach a Slack channel as one message; GET /api/v1/alert-deliveries shows the carrier
// (delivered, grouped_count 2) and the two others (grouped, grouped_into the carrier), `group`
// lists one grouped message, Retry on a grouped one answers 409, and another company sees none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../../src/server/db/scope.ts';
import { notifyIn } from '../../../src/server/notify/notify.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import type { Receiver } from '../../fixtures/receivers/receiver-server.ts';
import { SLACK_HOOK_PATH, startSlackReceiver } from '../../fixtures/receivers/slack-receiver.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';

describe.each(DB_KINDS)('grouped delivery receipts on %s', (kind) => {
  let t: TestApp;
  let slack: Receiver;

  beforeAll(async () => {
    slack = await startSlackReceiver();
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true', ALERT_GROUP_WINDOW_SECONDS: '0' } });
  });
  afterAll(async () => {
    await slack?.close();
    await t?.close();
  });

  it('one Slack message for three monitors; the receipts show the carrier and what it carried', async () => {
    const acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    const globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    const admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }), 'acme.localhost');
    const other = t.client();
    await signIn(other, await seedUser(t.services, { userType: 2, companyId: globex.id }), 'globex.localhost');
    const acmeHost = { host: 'acme.localhost' };

    const channel = await admin.post(
      '/api/v1/alert-channels',
      { name: 'Ops Slack', type: 'slack', config: { url: `${slack.origin}${SLACK_HOOK_PATH}` }, events: ['incident.opened'] },
      acmeHost,
    );
    expect(channel.status).toBe(201);
    const monitors: Array<{ id: string; name: string }> = [];
    for (const name of ['API', 'Website', 'Checkout']) {
      const m = await admin.post('/api/v1/monitors', { name, type: 'http', url: 'https://example.com/', interval_seconds: 60 }, acmeHost);
      expect(m.status).toBe(201);
      monitors.push(m.body);
    }
    // The three incidents open in one batch of check results, as the engine's result writer does.
    await withTransaction(t.services.db, async (tx) => {
      const notify = notifyIn(tx, t.services.now());
      for (const m of monitors)
        await notify(acme.id, {
          type: 'monitor_incident',
          severity: 'critical',
          title: `${m.name} is down`,
          message: `${m.name} is down.`,
          details: null,
          metadata: { monitor_id: m.id, incident_id: `inc-${m.id}`, event: 'opened' },
          actionUrl: '/monitors',
          dedupeKey: `incident:inc-${m.id}:opened`,
        });
    });
    await runDeliveries(t.services, { holder: 'receipts-test' });

    expect(slack.refusals()).toEqual([]);
    expect(slack.accepted()).toHaveLength(1);
    expect(JSON.parse(slack.accepted()[0].request.body).blocks[0].text.text).toBe('3 monitors are down');

    const list = await admin.get(`/api/v1/alert-deliveries?channel_id=${channel.body.id}`, acmeHost);
    expect(list.status).toBe(200);
    const carrier = list.body.find((d: { state: string }) => d.state === 'delivered');
    expect(carrier).toMatchObject({ grouped_count: 2, grouped_into: null, attempts: 1 });
    const grouped = list.body.filter((d: { state: string }) => d.state === 'grouped');
    expect(grouped).toHaveLength(2);
    for (const d of grouped) expect(d).toMatchObject({ grouped_into: carrier.id, grouped_count: 0, attempts: 0, attempt_log: [] });

    const group = await admin.get(`/api/v1/alert-deliveries?group=${carrier.id}`, acmeHost);
    expect(group.body.map((d: { id: string }) => d.id).sort()).toEqual(list.body.map((d: { id: string }) => d.id).sort());
    const byState = await admin.get('/api/v1/alert-deliveries?state=grouped', acmeHost);
    expect(byState.body).toHaveLength(2);
    const retry = await admin.post(`/api/v1/alert-deliveries/${grouped[0].id}/retry`, {}, acmeHost);
    expect(retry.status).toBe(409);
    expect(retry.body.detail).toContain('grouped message');

    const foreign = await other.get(`/api/v1/alert-deliveries?group=${carrier.id}`, { host: 'globex.localhost' });
    expect(foreign.status).toBe(200);
    expect(foreign.body).toEqual([]);
  });
});
