import { beforeAll, describe, expect, it } from 'vitest';
import { itRefusesConfigs, receiverForFile, sendAccepted } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { GROUPED_NAMES, type Journey, runOutboxJourney } from '../../../../tests/fixtures/receivers/outbox-journey.ts';
import { envFor, groupedAlert, openedAlert, resolvedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { SIGNAL_GROUP, SIGNAL_NUMBER, startSignalReceiver } from '../../../../tests/fixtures/receivers/signal-receiver.ts';
import { DB_KINDS } from '../../../../tests/support/test-db.ts';
import { signal } from './signal.ts';

const receiver = receiverForFile(startSignalReceiver);

const RECIPIENTS = ['+4917012345678', SIGNAL_GROUP];
const config = (over: Record<string, unknown> = {}) =>
  signal.parseConfig({ server_url: receiver().origin, number: SIGNAL_NUMBER, recipients: RECIPIENTS, ...over });
const body = (request: { body: string }) => JSON.parse(request.body);

describe('Signal channel', () => {
  it.each([
    ['opened', openedAlert()],
    ['resolved', resolvedAlert()],
    ['grouped (1,000 monitors)', groupedAlert(1000)],
    ['test', openedAlert({ event: 'test', severity: 'info', incident: null, monitor: null })],
  ])('the signal-cli REST API accepts the %s alert for every recipient', async (_what, alert) => {
    const request = signal.build(alert, config(), envFor());
    expect(request.url).toBe(`${receiver().origin}/v2/send`);
    const answer = await sendAccepted(receiver(), request, 201);
    expect(JSON.parse(answer.body).timestamp).toMatch(/^\d+$/);
    expect(receiver().messages.at(-1)!.recipients).toEqual(RECIPIENTS);
  });

  it('sends plain text: names appear as typed, with the links spelled out', async () => {
    await sendAccepted(receiver(), signal.build(openedAlert(), config(), envFor()), 201);
    const { message } = receiver().messages.at(-1)!;
    expect(message.split('\n').slice(0, 3)).toEqual([
      'Website *prod* <b> is down',
      'The check failed 3 times in a row: connection refused. Started at 10:02 UTC.',
      'Incident opened · Critical · Acme & Sons <Ltd>',
    ]);
    expect(message).toContain('Monitor: Website *prod* <b> (https://acme.example.com/health?a=1&b=2)');
    expect(message).toContain('Acknowledge: http://acme.localhost:4321/api/v1/ack?token=abc&sig=def');
  });

  it("lists a grouped alert's monitors within 2,000 characters, the rest counted", async () => {
    await sendAccepted(receiver(), signal.build(groupedAlert(1000), config(), envFor()), 201);
    const { message } = receiver().messages.at(-1)!;
    expect(message.length).toBeLessThanOrEqual(2000);
    expect(message).toContain('1000 monitors:\n- Service 1 <api> & co\n- Service 2 <api> & co');
    expect(message).toMatch(/…and \d+ more\n/);
  });

  it('takes recipients as the form sends them, one a line', () => {
    expect(config({ recipients: `+4917012345678\n\n ${SIGNAL_GROUP} \n` }).recipients).toEqual(RECIPIENTS);
  });

  it('the fake refuses a sender not registered on the server as signal-cli does', async () => {
    const answer = await send(signal.build(openedAlert(), config({ number: '+4915199999999' }), envFor()));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: 'User +4915199999999 is not registered.' });
  });

  const ok = { server_url: 'http://signal.internal:8080', number: SIGNAL_NUMBER };
  itRefusesConfigs(signal.parseConfig, [
    [{ number: SIGNAL_NUMBER, recipients: RECIPIENTS }, 'server_url', 'Server URL is required.'],
    [
      { ...ok, number: '015112345678', recipients: RECIPIENTS },
      'number',
      'Sender number must be a phone number in international format such as +4915112345678.',
    ],
    [ok, 'recipients', 'Recipients is required.'],
    [{ ...ok, recipients: [] }, 'recipients', 'Recipients is required.'],
    [
      { ...ok, recipients: ['alice'] },
      'recipients',
      '"alice" is neither a phone number such as +4917012345678 nor a group ID such as group.abc…=.',
    ],
    [
      { ...ok, recipients: Array.from({ length: 21 }, (_, i) => `+49170000000${String(i).padStart(2, '0')}`) },
      'recipients',
      'At most 20 recipients.',
    ],
  ]);

  it('gives the server to the SSRF guard', () => {
    expect(signal.tenantUrls(config())).toEqual([`${receiver().origin}/`]);
  });
});

describe.each(DB_KINDS)('Signal through the outbox on %s', (kind) => {
  let journey: Journey;
  beforeAll(async () => {
    journey = await runOutboxJourney(kind, receiver(), {
      type: 'signal',
      config: { server_url: receiver().origin, number: SIGNAL_NUMBER, recipients: RECIPIENTS },
    });
  });

  it('the server accepts every delivery: opened, acknowledged, resolved, grouped and Send test', () => {
    expect(journey.refusals).toEqual([]);
    const first = (xs: Journey['opened']) => xs.map((x) => body(x.request).message.split('\n')[0]);
    expect(first(journey.opened)).toEqual([expect.stringMatching(/^Website \*prod\* <b> is down/)]);
    expect(journey.acknowledged).toHaveLength(1);
    expect(first(journey.resolved)).toEqual([expect.stringMatching(/^Website \*prod\* <b> is (up|back)/)]);
    expect(first(journey.test)).toEqual([expect.stringMatching(/^Test alert for "On call"/)]);
    expect(journey.receipts.filter((s) => s !== 'delivered' && s !== 'grouped')).toEqual([]);
  });

  it('the three monitors going down together arrive as one message naming each', () => {
    expect(journey.grouped).toHaveLength(1);
    const { message } = body(journey.grouped[0].request);
    expect(message).toContain('\n3 monitors:\n- ');
    for (const name of GROUPED_NAMES) expect(message).toContain(`\n- ${name}\n`);
  });
});
