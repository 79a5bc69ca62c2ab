import { describe, expect, it } from 'vitest';
import { sendAccepted, receiverForFile, itRefusesConfigs } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { OPSGENIE_API_KEY, startOpsgenieReceiver } from '../../../../tests/fixtures/receivers/opsgenie-receiver.ts';
import {
  envFor,
  groupedAlert,
  maintenanceAlert,
  openedAlert,
  resolvedAlert,
  send,
  UPGRADE,
} from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { opsgenie } from './opsgenie.ts';

const receiver = receiverForFile(startOpsgenieReceiver);

const config = () => opsgenie.parseConfig({ api_key: OPSGENIE_API_KEY });
const env = () => envFor({ opsgenie: receiver().origin });

describe('Opsgenie channel', () => {
  it.each([
    ['opened', openedAlert(), '/v2/alerts'],
    ['resolved', resolvedAlert(), '/v2/alerts/statuswatch-inc-42/close'],
    ['grouped (1,000 monitors)', groupedAlert(1000), '/v2/alerts'],
    ['acknowledged', openedAlert({ event: 'incident.acknowledged' }), '/v2/alerts/statuswatch-inc-42/acknowledge'],
  ])('Opsgenie accepts the %s alert', async (_what, alert, path) => {
    const request = opsgenie.build(alert, config(), env());
    expect(new URL(request.url).pathname).toBe(path);
    expect(request.headers.authorization).toBe(`GenieKey ${OPSGENIE_API_KEY}`);
    const answer = await sendAccepted(receiver(), request, 202);
    expect(JSON.parse(answer.body)).toMatchObject({ result: 'Request will be processed' });
  });

  it('opens one Opsgenie alert per incident and closes it by its alias', async () => {
    const incident = { id: 'inc-9', title: 'x', status: 'investigating', impact: null };
    await send(opsgenie.build(openedAlert({ incident }), config(), env()));
    expect(receiver().alerts.get('statuswatch-inc-9')).toBe('open');
    const close = opsgenie.build(resolvedAlert({ incident: { ...incident, status: 'resolved' } }), config(), env());
    expect(close.url).toBe(`${receiver().origin}/v2/alerts/statuswatch-inc-9/close?identifierType=alias`);
    await send(close);
    expect(receiver().alerts.get('statuswatch-inc-9')).toBe('closed');
  });

  it('opens one Opsgenie alert per maintenance occurrence and closes it when the occurrence ends', async () => {
    const started = opsgenie.build(maintenanceAlert('maintenance.started'), config(), env());
    expect(new URL(started.url).pathname).toBe('/v2/alerts');
    const alias = `statuswatch-maintenance-${UPGRADE.id}-${UPGRADE.starts_at}`;
    expect(JSON.parse(started.body)).toMatchObject({ alias, priority: 'P5' });
    expect((await send(started)).status).toBe(202);
    expect(receiver().alerts.get(alias)).toBe('open');

    // The next week's occurrence of a recurring window is its own Opsgenie alert.
    const nextWeek = { ...UPGRADE, starts_at: UPGRADE.starts_at + 7 * 86_400_000, ends_at: UPGRADE.ends_at + 7 * 86_400_000 };
    await send(opsgenie.build(maintenanceAlert('maintenance.started', { deliveryId: 'msg_mw_2', maintenance: nextWeek }), config(), env()));
    const nextAlias = `statuswatch-maintenance-${UPGRADE.id}-${nextWeek.starts_at}`;
    expect(receiver().alerts.get(nextAlias)).toBe('open');

    const ended = opsgenie.build(maintenanceAlert('maintenance.ended'), config(), env());
    expect(ended.url).toBe(`${receiver().origin}/v2/alerts/${alias}/close?identifierType=alias`);
    expect((await send(ended)).status).toBe(202);
    expect(receiver().alerts.get(alias)).toBe('closed');
    expect(receiver().alerts.get(nextAlias)).toBe('open');
  });

  it('keeps the message within 130 characters and maps severity onto P1–P5', () => {
    const body = JSON.parse(opsgenie.build(openedAlert({ title: 'y'.repeat(400), severity: 'medium' }), config(), env()).body);
    expect(body.message).toHaveLength(130);
    expect(body.priority).toBe('P3');
  });

  it('the fake refuses a wrong key as Opsgenie does', async () => {
    const request = opsgenie.build(openedAlert(), config(), env());
    const answer = await send({
      ...request,
      headers: { ...request.headers, authorization: 'GenieKey 00000000-0000-0000-0000-000000000000' },
    });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ message: 'Could not authenticate' });
  });

  itRefusesConfigs(opsgenie.parseConfig, [
    [{}, 'api_key', 'API key is required.'],
    [{ api_key: 'not-a-key' }, 'api_key', 'API key must be the key of an Opsgenie API integration (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx).'],
  ]);
});
