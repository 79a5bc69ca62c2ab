import { beforeAll, describe, expect, it } from 'vitest';
import { itRefusesConfigs, receiverForFile, sendAccepted } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { MATRIX_ROOM, MATRIX_TOKEN, startMatrixReceiver } from '../../../../tests/fixtures/receivers/matrix-receiver.ts';
import { type Journey, runOutboxJourney } from '../../../../tests/fixtures/receivers/outbox-journey.ts';
import { envFor, groupedAlert, openedAlert, resolvedAlert, send } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { DB_KINDS } from '../../../../tests/support/test-db.ts';
import { matrix } from './matrix.ts';

const receiver = receiverForFile(startMatrixReceiver);

const config = (over: Record<string, unknown> = {}) =>
  matrix.parseConfig({ homeserver_url: receiver().origin, access_token: MATRIX_TOKEN, room_id: MATRIX_ROOM, ...over });
const body = (request: { body: string }) => JSON.parse(request.body);

describe('Matrix channel', () => {
  it.each([
    ['opened', openedAlert()],
    ['resolved', resolvedAlert()],
    ['grouped (1,000 monitors)', groupedAlert(1000)],
    ['test', openedAlert({ deliveryId: 'msg_test_1', event: 'test', severity: 'info', incident: null, monitor: null })],
  ])('the homeserver accepts the %s alert, PUT under the delivery id as the transaction id', async (_what, alert) => {
    const request = matrix.build(alert, config(), envFor());
    expect(request.method).toBe('PUT');
    expect(request.url).toBe(
      `${receiver().origin}/_matrix/client/v3/rooms/${encodeURIComponent(MATRIX_ROOM)}/send/m.room.message/${alert.deliveryId}`,
    );
    expect(request.headers.authorization).toBe(`Bearer ${MATRIX_TOKEN}`);
    const answer = await sendAccepted(receiver(), request, 200);
    expect(JSON.parse(answer.body).event_id).toMatch(/^\$/);
    expect(receiver().events.at(-1)!.content).toMatchObject({ msgtype: 'm.text', format: 'org.matrix.custom.html' });
  });

  it('a repeated delivery (a retry after a lost answer) is the same event, not a second message', async () => {
    const attempt = () => matrix.build(openedAlert({ deliveryId: 'msg_retry_1' }), config(), envFor());
    const first = await sendAccepted(receiver(), attempt(), 200);
    const count = receiver().events.length;
    const again = await sendAccepted(receiver(), attempt(), 200);
    expect(JSON.parse(again.body).event_id).toBe(JSON.parse(first.body).event_id);
    expect(receiver().events).toHaveLength(count);
  });

  it('escapes names in the HTML body and keeps them as typed in the plain one', async () => {
    await sendAccepted(receiver(), matrix.build(openedAlert(), config(), envFor()), 200);
    const { content } = receiver().events.at(-1)!;
    expect(content.formatted_body).toContain('<p><strong>Website *prod* &lt;b&gt; is down</strong></p>');
    expect(content.formatted_body).toContain(
      'Monitor: <strong>Website *prod* &lt;b&gt;</strong> <code>https://acme.example.com/health?a=1&amp;b=2</code>',
    );
    expect(content.formatted_body).toContain('<em>Incident opened · Critical · Acme &amp; Sons &lt;Ltd&gt;</em>');
    expect(content.body).toContain('Monitor: Website *prod* <b> (https://acme.example.com/health?a=1&b=2)');
  });

  it("lists a grouped alert's monitors in both bodies, the rest counted, within the event size", async () => {
    const request = matrix.build(groupedAlert(1000, { deliveryId: 'msg_group_2' }), config(), envFor());
    expect(Buffer.byteLength(request.body)).toBeLessThan(65_536);
    await sendAccepted(receiver(), request, 200);
    const { content } = receiver().events.at(-1)!;
    expect(content.formatted_body).toContain('<li>Service 1 &lt;api&gt; &amp; co https://svc-1.acme.example.com/health</li>');
    expect(content.body).toMatch(/- …and \d+ more\n/);
  });

  it('the fake refuses a wrong token and a room the bot has not joined as a homeserver does', async () => {
    const wrong = await send(matrix.build(openedAlert(), config({ access_token: 'syt_wrong_token' }), envFor()));
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body)).toMatchObject({ errcode: 'M_UNKNOWN_TOKEN' });
    const elsewhere = await send(matrix.build(openedAlert(), config({ room_id: '!other:matrix.acme.test' }), envFor()));
    expect(elsewhere.status).toBe(403);
    expect(JSON.parse(elsewhere.body)).toMatchObject({ errcode: 'M_FORBIDDEN' });
  });

  itRefusesConfigs(matrix.parseConfig, [
    [{ access_token: MATRIX_TOKEN, room_id: MATRIX_ROOM }, 'homeserver_url', 'Homeserver URL is required.'],
    [{ homeserver_url: 'https://matrix.org', room_id: MATRIX_ROOM }, 'access_token', 'Access token is required.'],
    [
      { homeserver_url: 'https://matrix.org', access_token: MATRIX_TOKEN, room_id: '#ops:matrix.org' },
      'room_id',
      'Room ID must be a room ID such as !AbCdEfGh:matrix.example.org.',
    ],
  ]);

  it('keeps the token secret and gives the homeserver to the SSRF guard', () => {
    expect(matrix.secretFields).toEqual(['access_token']);
    expect(matrix.tenantUrls(config())).toEqual([`${receiver().origin}/`]);
  });
});

describe.each(DB_KINDS)('Matrix through the outbox on %s', (kind) => {
  let journey: Journey;
  beforeAll(async () => {
    journey = await runOutboxJourney(kind, receiver(), {
      type: 'matrix',
      config: { homeserver_url: receiver().origin, access_token: MATRIX_TOKEN, room_id: MATRIX_ROOM },
    });
  });

  it('the homeserver accepts every delivery, each under its own transaction id', () => {
    expect(journey.refusals).toEqual([]);
    const all = [...journey.opened, ...journey.acknowledged, ...journey.resolved, ...journey.grouped, ...journey.test];
    expect(all).toHaveLength(5);
    expect(new Set(all.map((x) => x.request.path)).size).toBe(5);
    expect(body(journey.opened[0].request).body).toMatch(/^Website \*prod\* <b> is down\n/);
    expect(body(journey.acknowledged[0].request).body).toContain('Acknowledged · ');
    expect(body(journey.resolved[0].request).body).toContain('Incident resolved · ');
    expect(body(journey.test[0].request).body).toMatch(/^Test alert for "On call"/);
    expect(journey.receipts.filter((s) => s !== 'delivered' && s !== 'grouped')).toEqual([]);
  });

  it('the three monitors going down together arrive as one message naming each, escaped', () => {
    expect(journey.grouped).toHaveLength(1);
    const html = body(journey.grouped[0].request).formatted_body;
    expect(html).toContain('<strong>3 monitors</strong>');
    expect(html).toContain('<li>Website *prod* &lt;b&gt; http://127.0.0.1:');
    expect(html).toContain('<li>API _v2_ &amp; &lt;Billing&gt; http://127.0.0.1:');
  });
});
