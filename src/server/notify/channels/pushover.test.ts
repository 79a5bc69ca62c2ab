import { beforeAll, describe, expect, it } from 'vitest';
import { itRefusesConfigs, receiverForFile, sendAccepted } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { type Journey, runOutboxJourney } from '../../../../tests/fixtures/receivers/outbox-journey.ts';
import { PUSHOVER_TOKEN, PUSHOVER_USER, startPushoverReceiver } from '../../../../tests/fixtures/receivers/pushover-receiver.ts';
import { envFor, groupedAlert, openedAlert, resolvedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { DB_KINDS } from '../../../../tests/support/test-db.ts';
import { pushover } from './pushover.ts';

const receiver = receiverForFile(startPushoverReceiver);

const config = (over: Record<string, unknown> = {}) =>
  pushover.parseConfig({ api_token: PUSHOVER_TOKEN, user_key: PUSHOVER_USER, ...over });
const env = () => envFor({ pushover: receiver().origin });
const form = (body: string) => Object.fromEntries(new URLSearchParams(body));

describe('Pushover channel', () => {
  it.each([
    ['opened', openedAlert(), 1],
    ['resolved', resolvedAlert(), 0],
    ['grouped (1,000 monitors)', groupedAlert(1000), 1],
    ['test', openedAlert({ event: 'test', severity: 'info', incident: null, monitor: null }), 0],
    ['low-severity', openedAlert({ severity: 'low' }), -1],
  ])('Pushover accepts the %s alert at its priority', async (_what, alert, priority) => {
    const request = pushover.build(alert, config(), env());
    expect(request.url).toBe(`${receiver().origin}/1/messages.json`);
    const answer = await sendAccepted(receiver(), request, 200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 1 });
    expect(receiver().messages.at(-1)).toMatchObject({ priority, html: true, title: `${alert.title} (Acme & Sons <Ltd>)` });
  });

  it("lists a grouped alert's monitors within Pushover's 1,024 characters, the rest counted", async () => {
    await sendAccepted(receiver(), pushover.build(groupedAlert(1000), config(), env()), 200);
    const { message } = receiver().messages.at(-1)!;
    expect([...message].length).toBeLessThanOrEqual(1024);
    expect(message).toContain('<b>1000 monitors</b>\n• Service 1 &lt;api&gt; &amp; co\n• Service 2 &lt;api&gt; &amp; co');
    expect(message).toMatch(/…and \d+ more\n/);
  });

  it('escapes names in the HTML message, and cuts a long title to 250 characters', async () => {
    const request = pushover.build(openedAlert({ title: 'x'.repeat(400) }), config({ device: 'iphone,desk' }), env());
    await sendAccepted(receiver(), request, 200);
    const sent = receiver().messages.at(-1)!;
    expect(sent.message).toContain('<b>Website *prod* &lt;b&gt;</b> https://acme.example.com/health?a=1&amp;b=2');
    expect(sent.message).toContain('<a href="http://acme.localhost:4321/api/v1/ack?token=abc&amp;sig=def">Acknowledge</a>');
    expect(sent.title).toHaveLength(250);
    expect(sent.device).toBe('iphone,desk');
    expect(sent.url).toBe('http://acme.localhost:4321/monitors?incident=inc-42');
  });

  it('the fake refuses a wrong user key as Pushover does', async () => {
    const request = pushover.build(openedAlert(), config({ user_key: 'u'.repeat(30) }), env());
    const answer = await send(request);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 0, user: 'invalid' });
  });

  itRefusesConfigs(pushover.parseConfig, [
    [{ user_key: PUSHOVER_USER }, 'api_token', 'Application API token is required.'],
    [
      { api_token: 'short', user_key: PUSHOVER_USER },
      'api_token',
      'Application API token must be the 30 letters and digits of a Pushover application token.',
    ],
    [{ api_token: PUSHOVER_TOKEN }, 'user_key', 'User or group key is required.'],
    [
      { api_token: PUSHOVER_TOKEN, user_key: PUSHOVER_USER, device: 'my phone' },
      'device',
      'Devices must be device names (letters, digits, - and _, at most 25 each) separated by commas.',
    ],
    [
      { api_token: PUSHOVER_TOKEN, user_key: PUSHOVER_USER, sound: 'siren' },
      'sound',
      'Unknown setting "sound"; expected api_token, user_key, device.',
    ],
  ]);

  it('keeps the token and key secret and calls only the configured API host', () => {
    expect(pushover.secretFields).toEqual(['api_token', 'user_key']);
    expect(pushover.tenantUrls(config())).toEqual([]);
  });
});

describe.each(DB_KINDS)('Pushover through the outbox on %s', (kind) => {
  let journey: Journey;
  beforeAll(async () => {
    journey = await runOutboxJourney(kind, receiver(), {
      type: 'pushover',
      config: { api_token: PUSHOVER_TOKEN, user_key: PUSHOVER_USER },
      env: { PUSHOVER_API_URL: receiver().origin },
    });
  });

  it('Pushover accepts every delivery: opened, acknowledged, resolved, grouped and Send test', () => {
    expect(journey.refusals).toEqual([]);
    const sent = (xs: Journey['opened']) => xs.map((x) => form(x.request.body));
    expect(sent(journey.opened)).toEqual([expect.objectContaining({ priority: '1' })]);
    expect(sent(journey.opened)[0].title).toMatch(/^Website \*prod\* <b> is down \(/);
    expect(sent(journey.acknowledged)).toEqual([expect.objectContaining({ priority: '-1' })]);
    expect(sent(journey.resolved)).toEqual([expect.objectContaining({ priority: '0' })]);
    expect(sent(journey.test)).toEqual([expect.objectContaining({ priority: '0' })]);
    expect(journey.receipts.filter((s) => s !== 'delivered' && s !== 'grouped')).toEqual([]);
  });

  it('the three monitors going down together arrive as one message naming each, escaped', () => {
    expect(journey.grouped).toHaveLength(1);
    const { message } = form(journey.grouped[0].request.body);
    expect(message).toContain('<b>3 monitors</b>');
    expect(message).toContain('• Website *prod* &lt;b&gt;');
    expect(message).toContain('• API _v2_ &amp; &lt;Billing&gt;');
    expect(message).toContain('• Shop [EU] `cart`');
  });
});
