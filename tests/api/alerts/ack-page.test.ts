// The acknowledge link's page over real HTTP (the built Astro page, as console-pages.test.ts):
// GET and HEAD only show (a mail scanner prefetching the link acknowledges nothing), the answer
// is never cached and sends no referrer; the form's POST acknowledges; a POST from another site
// is refused; a forged token or another company's host answers 404 showing nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distDirFromEnv } from '../../../scripts/console-budget.ts';
import { createChannel } from '../../../src/server/domain/alerts/channels.ts';
import { putEscalationPolicy, runEscalations } from '../../../src/server/domain/alerts/escalation.ts';
import { signAckToken } from '../../../src/server/domain/incidents/ack-token.ts';
import { createIncident, getIncident } from '../../../src/server/domain/incidents/service.ts';
import { actorFor, ctxFor, seedCompany, seedUser } from '../../support/fixtures.ts';
import { rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';

describe('the acknowledge page', () => {
  let t: TestApp;
  let host = '';
  let otherHost = '';
  let token = '';
  let incidentId = '';
  let ctx: ReturnType<typeof ctxFor>;

  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite', withPages: true, env: { DIST_DIR: distDirFromEnv(), ALLOW_PRIVATE_TARGETS: 'true' } });
    const acme = await seedCompany(t.services, { name: 'Acme' });
    const globex = await seedCompany(t.services, { name: 'Globex' });
    host = `${acme.subdomain}.${t.config.productDomain}:${t.port}`;
    otherHost = `${globex.subdomain}.${t.config.productDomain}:${t.port}`;
    ctx = ctxFor(t.services, actorFor(await seedUser(t.services, { userType: 2, companyId: acme.id })));
    const hook = await createChannel(ctx, {
      name: 'Hook',
      type: 'webhook',
      config: { url: 'http://127.0.0.1:9/' },
      events: ['incident.opened'],
    });
    await putEscalationPolicy(ctx, { steps: [{ after_minutes: 0, channel_ids: [hook.id], user_ids: [] }] });
    const incident = await createIncident(ctx, { title: 'Checkout <b>down</b>', severity: 'high', message: 'Looking.' });
    incidentId = incident.id;
    await runEscalations(t.services, t.services.now());
    const delivery = await t.services.db.k.selectFrom('alert_deliveries').select(['id', 'created_at']).executeTakeFirstOrThrow();
    token = signAckToken(t.config.sessionSecret, {
      incidentId,
      deliveryId: delivery.id,
      expiresAt: Number(delivery.created_at) + 86_400_000,
    });
  });
  afterAll(async () => t?.close());

  const page = (method: string, path: string, headers: Record<string, string> = {}, h = host) =>
    rawRequest(`${t.baseUrl}${path}`, method, { host: h, ...headers }, method === 'POST' ? '' : undefined);
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  it('GET and HEAD show the incident (escaped) and acknowledge nothing; the page is not cached and sends no referrer off the site', async () => {
    const r = await page('GET', `/ack/${token}`);
    expect(r.status).toBe(200);
    expect(r.text).toContain('Checkout &lt;b&gt;down&lt;/b&gt;');
    expect(r.text).toContain('Acknowledge incident');
    expect(r.text).toContain('<meta name="referrer" content="same-origin"');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect((await page('HEAD', `/ack/${token}`)).status).toBe(200);
    expect((await getIncident(ctx, incidentId)).acknowledged_at).toBeNull();
  });

  it('refuses forged tokens and other hosts with a page that shows nothing of the incident', async () => {
    for (const [path, h] of [
      [`/ack/${token.slice(0, -4)}AAAA`, host],
      ['/ack/nothing-here', host],
      [`/ack/${token}`, otherHost],
    ]) {
      const r = await page('GET', path, {}, h);
      expect(r.status, path).toBe(404);
      expect(r.text).toContain('This link is not valid');
      expect(r.text).not.toContain('Checkout');
    }
    expect((await page('POST', `/ack/${token}`, { ...form, origin: `http://${otherHost}` }, otherHost)).status).toBe(404);
    expect((await getIncident(ctx, incidentId)).acknowledged_at).toBeNull();
  });

  it('refuses a POST from another site, and acknowledges on the form POST of its own page', async () => {
    const cross = await page('POST', `/ack/${token}`, { ...form, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(cross.status).toBe(403);
    expect((await getIncident(ctx, incidentId)).acknowledged_at).toBeNull();

    const ok = await page('POST', `/ack/${token}`, { ...form, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Acknowledged.');
    expect((await getIncident(ctx, incidentId)).acknowledged_via).toBe('"Hook"');
    const again = await page('GET', `/ack/${token}`);
    expect(again.text).toContain('This link was used');
    expect(again.text).not.toContain('Acknowledge incident');
  });
});
