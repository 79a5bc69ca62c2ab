import { beforeAll, describe, expect, it } from 'vitest';
import { itRefusesConfigs, receiverForFile, sendAccepted } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { GOTIFY_TOKEN, startGotifyReceiver } from '../../../../tests/fixtures/receivers/gotify-receiver.ts';
import { type Journey, runOutboxJourney } from '../../../../tests/fixtures/receivers/outbox-journey.ts';
import { envFor, groupedAlert, openedAlert, resolvedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { engineServices, seedTenant } from '../../../../tests/api/engine/support.ts';
import { DB_KINDS } from '../../../../tests/support/test-db.ts';
import { createChannel } from '../../domain/alerts/channels.ts';
import { gotify } from './gotify.ts';

// The company's Gotify lives under a path of its reverse proxy.
const receiver = receiverForFile(() => startGotifyReceiver('/gotify'));

const config = (over: Record<string, unknown> = {}) =>
  gotify.parseConfig({ server_url: `${receiver().origin}/gotify`, app_token: GOTIFY_TOKEN, ...over });
const body = (request: { body: string }) => JSON.parse(request.body);

describe('Gotify channel', () => {
  it.each([
    ['opened', openedAlert(), 10],
    ['resolved', resolvedAlert(), 4],
    ['grouped (1,000 monitors)', groupedAlert(1000), 10],
    ['test', openedAlert({ event: 'test', severity: 'info', incident: null, monitor: null }), 4],
    ['medium-severity', openedAlert({ severity: 'medium' }), 5],
  ])('Gotify accepts the %s alert at its priority, as Markdown that opens the console', async (_what, alert, priority) => {
    const request = gotify.build(alert, config(), envFor());
    expect(request.url).toBe(`${receiver().origin}/gotify/message`);
    expect(request.headers['x-gotify-key']).toBe(GOTIFY_TOKEN);
    const answer = await sendAccepted(receiver(), request, 200);
    expect(JSON.parse(answer.body)).toMatchObject({ priority, title: `${alert.title} (Acme & Sons <Ltd>)` });
    expect(receiver().messages.at(-1)!.extras).toEqual({
      'client::display': { contentType: 'text/markdown' },
      'client::notification': { click: { url: 'http://acme.localhost:4321/monitors?incident=inc-42' } },
    });
  });

  it('escapes Markdown in names so a monitor called *prod* is not shown in italics', async () => {
    await sendAccepted(receiver(), gotify.build(openedAlert(), config(), envFor()), 200);
    const { message } = receiver().messages.at(-1)!;
    expect(message).toContain('**Website \\*prod\\* <b\\>** https://acme.example.com/health?a=1&b=2');
    expect(message).toContain('[Acknowledge](<http://acme.localhost:4321/api/v1/ack?token=abc&sig=def>)');
  });

  it("lists a grouped alert's monitors, the rest counted", async () => {
    await sendAccepted(receiver(), gotify.build(groupedAlert(1000), config(), envFor()), 200);
    const { message } = receiver().messages.at(-1)!;
    expect(message).toContain('**1000 monitors**\n\n- Service 1 <api\\> & co https://svc-1.acme.example.com/health');
    expect(message).toMatch(/…and \d+ more\n/);
  });

  it('the fake refuses a wrong application token as Gotify does', async () => {
    const answer = await send(gotify.build(openedAlert(), config({ app_token: 'AnotherToken123' }), envFor()));
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'Unauthorized', errorCode: 401 });
  });

  itRefusesConfigs(gotify.parseConfig, [
    [{ app_token: GOTIFY_TOKEN }, 'server_url', 'Server URL is required.'],
    [{ server_url: 'gotify.example.com', app_token: GOTIFY_TOKEN }, 'server_url', 'Server URL must be a full URL starting with https://.'],
    [{ server_url: 'https://gotify.example.com' }, 'app_token', 'Application token is required.'],
    [
      { server_url: 'https://gotify.example.com', app_token: 'has spaces in it' },
      'app_token',
      'Application token must be the token of a Gotify application (letters, digits, . - and _).',
    ],
  ]);

  it('keeps the token secret and gives the server to the SSRF guard', () => {
    expect(gotify.secretFields).toEqual(['app_token']);
    expect(gotify.tenantUrls(config())).toEqual([`${receiver().origin}/gotify`]);
  });
});

describe.each(DB_KINDS)('Gotify through the outbox on %s', (kind) => {
  let journey: Journey;
  beforeAll(async () => {
    journey = await runOutboxJourney(kind, receiver(), {
      type: 'gotify',
      config: { server_url: `${receiver().origin}/gotify`, app_token: GOTIFY_TOKEN },
    });
  });

  it('Gotify accepts every delivery: opened, acknowledged, resolved, grouped and Send test', () => {
    expect(journey.refusals).toEqual([]);
    // The engine opens a monitor's outage as high severity: Gotify's 8 pops up on Android.
    expect(journey.opened.map((x) => body(x.request).priority)).toEqual([8]);
    expect(body(journey.opened[0].request).title).toMatch(/^Website \*prod\* <b> is down \(/);
    expect(journey.acknowledged.map((x) => body(x.request).message)).toEqual([expect.stringContaining('*Acknowledged · ')]);
    expect(journey.resolved.map((x) => body(x.request).priority)).toEqual([4]);
    expect(journey.test.map((x) => body(x.request).title)).toEqual([expect.stringMatching(/^Test alert for "On call"/)]);
    expect(journey.receipts.filter((s) => s !== 'delivered' && s !== 'grouped')).toEqual([]);
  });

  it('the three monitors going down together arrive as one message naming each, escaped', () => {
    expect(journey.grouped).toHaveLength(1);
    const { message } = body(journey.grouped[0].request);
    expect(message).toContain('**3 monitors**');
    expect(message).toContain('- Website \\*prod\\* <b\\>');
    expect(message).toContain('- API \\_v2\\_ & <Billing\\>');
    expect(message).toContain('- Shop \\[EU\\] \\`cart\\`');
  });
});

describe.each(DB_KINDS)('a Gotify channel on a private address, on %s', (kind) => {
  it('is refused at creation naming its Server URL, when the operator keeps private targets closed', async () => {
    const services = await engineServices(kind, { ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      const t = await seedTenant(services);
      const attempt = createChannel(t.adminCtx, {
        name: 'Phones',
        type: 'gotify',
        config: { server_url: 'http://10.0.0.7:8080', app_token: GOTIFY_TOKEN },
        events: ['incident.opened'],
      });
      await expect(attempt).rejects.toMatchObject({
        code: 'validation',
        fields: { 'config.server_url': expect.stringMatching(/private|internal|not allowed/i) },
      });
    } finally {
      await services.db.close();
    }
  });
});
