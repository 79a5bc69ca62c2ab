import { beforeAll, describe, expect, it } from 'vitest';
import { itRefusesConfigs, receiverForFile, sendAccepted } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { type Journey, runOutboxJourney } from '../../../../tests/fixtures/receivers/outbox-journey.ts';
import { ROCKET_CHAT_HOOK_PATH, startRocketChatReceiver } from '../../../../tests/fixtures/receivers/rocket-chat-receiver.ts';
import { envFor, groupedAlert, openedAlert, resolvedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { DB_KINDS } from '../../../../tests/support/test-db.ts';
import { rocketChat } from './rocket-chat.ts';

const receiver = receiverForFile(startRocketChatReceiver);

const hook = () => `${receiver().origin}${ROCKET_CHAT_HOOK_PATH}`;
const config = () => rocketChat.parseConfig({ url: hook() });
const body = (request: { body: string }) => JSON.parse(request.body);

describe('Rocket.Chat channel', () => {
  it.each([
    ['opened', openedAlert(), '#D92D20'],
    ['resolved', resolvedAlert(), '#12B76A'],
    ['grouped (1,000 monitors)', groupedAlert(1000), '#D92D20'],
    ['test', openedAlert({ event: 'test', severity: 'info', incident: null, monitor: null }), '#2E90FA'],
  ])('Rocket.Chat accepts the %s alert with its colour', async (_what, alert, color) => {
    const answer = await sendAccepted(receiver(), rocketChat.build(alert, config(), envFor()), 200);
    expect(JSON.parse(answer.body)).toEqual({ success: true });
    expect(receiver().messages.at(-1)!.attachments[0]).toMatchObject({
      color,
      title_link: 'http://acme.localhost:4321/monitors?incident=inc-42',
    });
  });

  it('escapes Markdown in names and lists the details as fields', async () => {
    await sendAccepted(receiver(), rocketChat.build(openedAlert(), config(), envFor()), 200);
    const { text, attachments } = receiver().messages.at(-1)!;
    expect(text.split('\n\n')[0]).toBe('*Website \\*prod\\* <b\\> is down*');
    expect(attachments[0].fields).toEqual([
      { short: true, title: 'Severity', value: 'Critical' },
      { short: true, title: 'Company', value: 'Acme & Sons <Ltd>' },
      { short: false, title: 'Monitor', value: 'Website *prod* <b> https://acme.example.com/health?a=1&b=2' },
    ]);
  });

  it("lists a grouped alert's monitors within Rocket.Chat's 5,000 characters, the rest counted", async () => {
    await sendAccepted(receiver(), rocketChat.build(groupedAlert(1000), config(), envFor()), 200);
    const { text } = receiver().messages.at(-1)!;
    expect(text.length).toBeLessThanOrEqual(5000);
    expect(text).toContain('*1000 monitors*\n- Service 1 <api\\> & co https://svc-1.acme.example.com/health');
    expect(text).toMatch(/…and \d+ more\n/);
  });

  it('the fake refuses a hook with a wrong token as Rocket.Chat does', async () => {
    const request = rocketChat.build(openedAlert(), rocketChat.parseConfig({ url: `${receiver().origin}/hooks/x/y` }), envFor());
    const answer = await send(request);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({ success: false, error: 'Invalid integration id or token provided.' });
  });

  itRefusesConfigs(rocketChat.parseConfig, [
    [{}, 'url', 'Webhook URL is required.'],
    [{ url: 'chat.example.com/hooks/a/b' }, 'url', 'Webhook URL must be a full URL starting with https://.'],
    [{ url: 'https://user:pw@chat.example.com/hooks/a/b' }, 'url', 'Webhook URL must not contain a user name or password.'],
  ]);

  it('keeps the hook URL secret and gives it to the SSRF guard', () => {
    expect(rocketChat.secretFields).toEqual(['url']);
    expect(rocketChat.tenantUrls(config())).toEqual([hook()]);
  });
});

describe.each(DB_KINDS)('Rocket.Chat through the outbox on %s', (kind) => {
  let journey: Journey;
  beforeAll(async () => {
    journey = await runOutboxJourney(kind, receiver(), { type: 'rocket-chat', config: { url: hook() } });
  });

  it('Rocket.Chat accepts every delivery: opened, acknowledged, resolved, grouped and Send test', () => {
    expect(journey.refusals).toEqual([]);
    const title = (xs: Journey['opened']) => xs.map((x) => body(x.request).attachments[0].title);
    expect(title(journey.opened)).toEqual(['Incident opened']);
    expect(title(journey.acknowledged)).toEqual(['Acknowledged']);
    expect(title(journey.resolved)).toEqual(['Incident resolved']);
    expect(title(journey.test)).toEqual(['Test message']);
    expect(journey.receipts.filter((s) => s !== 'delivered' && s !== 'grouped')).toEqual([]);
  });

  it('the three monitors going down together arrive as one message naming each, escaped', () => {
    expect(journey.grouped).toHaveLength(1);
    const { text } = body(journey.grouped[0].request);
    expect(text).toContain('*3 monitors*');
    expect(text).toContain('- Website \\*prod\\* <b\\>');
    expect(text).toContain('- API \\_v2\\_ & <Billing\\>');
  });
});
