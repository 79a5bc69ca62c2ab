import { beforeAll, describe, expect, it } from 'vitest';
import { itRefusesConfigs, receiverForFile, sendAccepted } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { type Journey, runOutboxJourney } from '../../../../tests/fixtures/receivers/outbox-journey.ts';
import { envFor, groupedAlert, openedAlert, resolvedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { startZulipReceiver, ZULIP_BOT, ZULIP_KEY, ZULIP_STREAM } from '../../../../tests/fixtures/receivers/zulip-receiver.ts';
import { DB_KINDS } from '../../../../tests/support/test-db.ts';
import { zulip } from './zulip.ts';

const receiver = receiverForFile(startZulipReceiver);

const config = (over: Record<string, unknown> = {}) =>
  zulip.parseConfig({ site_url: receiver().origin, bot_email: ZULIP_BOT, api_key: ZULIP_KEY, stream: ZULIP_STREAM, ...over });
const form = (request: { body: string }) => Object.fromEntries(new URLSearchParams(request.body));

describe('Zulip channel', () => {
  it.each([
    ['opened', openedAlert(), 'Website is down (#inc-42)'],
    ['resolved', resolvedAlert(), 'Website is down (#inc-42)'],
    ['grouped (1,000 monitors)', groupedAlert(1000), '1000 monitors are down'],
    ['test', openedAlert({ event: 'test', severity: 'info', incident: null, monitor: null }), 'Test alerts'],
  ])('Zulip accepts the %s alert in its topic', async (_what, alert, topic) => {
    const request = zulip.build(alert, config(), envFor());
    expect(request.url).toBe(`${receiver().origin}/api/v1/messages`);
    const answer = await sendAccepted(receiver(), request, 200);
    expect(JSON.parse(answer.body)).toMatchObject({ result: 'success' });
    expect(receiver().messages.at(-1)).toMatchObject({ stream: ZULIP_STREAM, topic });
  });

  it('posts to the topic the company chose, when it chose one', async () => {
    await sendAccepted(receiver(), zulip.build(openedAlert(), config({ topic: 'uptime' }), envFor()), 200);
    expect(receiver().messages.at(-1)!.topic).toBe('uptime');
  });

  it('escapes Markdown in names, so a monitor named *prod* or @**all** is shown, not rendered', async () => {
    const alert = openedAlert({ monitor: { id: 'm-9', name: 'Website *prod* @**all**', target: 'https://acme.example.com/`x`' } });
    await sendAccepted(receiver(), zulip.build(alert, config(), envFor()), 200);
    const { content } = receiver().messages.at(-1)!;
    expect(content).toContain("Monitor: **Website \\*prod\\* @\\*\\*all\\*\\*** `https://acme.example.com/'x'`");
    expect(content).toContain('*Incident opened · Critical · Acme & Sons <Ltd\\>*');
  });

  it("lists a grouped alert's monitors within Zulip's 10,000 bytes, the rest counted", async () => {
    await sendAccepted(receiver(), zulip.build(groupedAlert(1000), config(), envFor()), 200);
    const { content } = receiver().messages.at(-1)!;
    expect(content).toContain('**1000 monitors**\n* Service 1 <api\\> & co https://svc-1.acme.example.com/health');
    expect(content).toMatch(/…and \d+ more\n/);
  });

  it('cuts a long incident title to a topic of 60 characters, which Zulip keeps whole', async () => {
    const alert = openedAlert({ incident: { id: 'inc-77', title: 'y'.repeat(100), status: 'investigating', impact: 'major' } });
    await sendAccepted(receiver(), zulip.build(alert, config(), envFor()), 200);
    expect(receiver().messages.at(-1)!.topic).toHaveLength(60);
  });

  it('the fake refuses a wrong API key and an unknown stream as Zulip does', async () => {
    const wrong = await send(zulip.build(openedAlert(), config({ api_key: 'x'.repeat(32) }), envFor()));
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body)).toMatchObject({ result: 'error', code: 'INVALID_API_KEY' });
    const nowhere = await send(zulip.build(openedAlert(), config({ stream: 'elsewhere' }), envFor()));
    expect(JSON.parse(nowhere.body)).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST' });
  });

  const ok = { site_url: 'https://acme.zulipchat.com', bot_email: ZULIP_BOT, api_key: ZULIP_KEY };
  itRefusesConfigs(zulip.parseConfig, [
    [{ ...ok, site_url: undefined, stream: 'alerts' }, 'site_url', 'Zulip URL is required.'],
    [
      { ...ok, bot_email: 'alerts-bot', stream: 'alerts' },
      'bot_email',
      "Bot e-mail must be the bot's e-mail address such as alerts-bot@acme.zulipchat.com.",
    ],
    [{ ...ok, api_key: 'not a key', stream: 'alerts' }, 'api_key', "API key must be the bot's API key (letters and digits)."],
    [ok, 'stream', 'Stream is required.'],
    [{ ...ok, stream: 'alerts', topic: 't'.repeat(61) }, 'topic', 'Topic must be at most 60 characters.'],
  ]);

  it('keeps the API key secret and gives the server to the SSRF guard', () => {
    expect(zulip.secretFields).toEqual(['api_key']);
    expect(zulip.tenantUrls(config())).toEqual([`${receiver().origin}/`]);
  });
});

describe.each(DB_KINDS)('Zulip through the outbox on %s', (kind) => {
  let journey: Journey;
  beforeAll(async () => {
    journey = await runOutboxJourney(kind, receiver(), {
      type: 'zulip',
      config: { site_url: receiver().origin, bot_email: ZULIP_BOT, api_key: ZULIP_KEY, stream: ZULIP_STREAM },
    });
  });

  it("an incident's opening, acknowledgement and resolution share its topic", () => {
    expect(journey.refusals).toEqual([]);
    const topics = [...journey.opened, ...journey.acknowledged, ...journey.resolved].map((x) => form(x.request).topic);
    expect(topics).toHaveLength(3);
    expect(new Set(topics).size).toBe(1);
    expect(topics[0]).toContain(`(#${journey.incidentId.slice(0, 8)})`);
    expect(journey.test.map((x) => form(x.request).topic)).toEqual(['Test alerts']);
    expect(journey.receipts.filter((s) => s !== 'delivered' && s !== 'grouped')).toEqual([]);
  });

  it('the three monitors going down together arrive as one message naming each, escaped', () => {
    expect(journey.grouped).toHaveLength(1);
    const { content } = form(journey.grouped[0].request);
    expect(content).toContain('**3 monitors**');
    expect(content).toContain('* Website \\*prod\\* <b\\>');
    expect(content).toContain('* API \\_v2\\_ & <Billing\\>');
    expect(content).toContain('* Shop \\[EU\\] \\`cart\\`');
  });
});
