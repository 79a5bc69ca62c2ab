import { beforeAll, describe, expect, it } from 'vitest';
import { itRefusesConfigs, receiverForFile, sendAccepted } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { type Journey, runOutboxJourney } from '../../../../tests/fixtures/receivers/outbox-journey.ts';
import {
  envFor,
  groupedAlert,
  maintenanceAlert,
  openedAlert,
  resolvedAlert,
  send,
  UPGRADE,
} from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { startZendutyReceiver, ZENDUTY_KEY } from '../../../../tests/fixtures/receivers/zenduty-receiver.ts';
import { DB_KINDS } from '../../../../tests/support/test-db.ts';
import { zenduty } from './zenduty.ts';

const receiver = receiverForFile(startZendutyReceiver);

const config = (over: Record<string, unknown> = {}) => zenduty.parseConfig({ integration_key: ZENDUTY_KEY, ...over });
const env = () => envFor({ zenduty: receiver().origin });
const body = (request: { body: string }) => JSON.parse(request.body);

describe('Zenduty channel', () => {
  it.each([
    ['opened', openedAlert(), 'critical', 'statuswatch-inc-42'],
    ['acknowledged', openedAlert({ event: 'incident.acknowledged' }), 'acknowledged', 'statuswatch-inc-42'],
    ['resolved', resolvedAlert(), 'resolved', 'statuswatch-inc-42'],
    ['grouped (1,000 monitors)', groupedAlert(1000), 'critical', 'statuswatch-incident.opened-m-1'],
    ['test', openedAlert({ event: 'test', severity: 'info', incident: null, monitor: null }), 'info', 'statuswatch-msg_2f1c9a0b7d'],
    ['high-severity', openedAlert({ severity: 'high' }), 'error', 'statuswatch-inc-42'],
  ])('Zenduty accepts the %s alert as %s of its entity', async (_what, alert, type, entity) => {
    const request = zenduty.build(alert, config(), env());
    expect(request.url).toBe(`${receiver().origin}/api/events/${ZENDUTY_KEY}/`);
    const answer = await sendAccepted(receiver(), request, 201);
    expect(JSON.parse(answer.body)).toMatchObject({ alert_type: type, entity_id: entity });
  });

  it('opens, acknowledges and resolves one Zenduty alert per incident', async () => {
    const incident = { id: 'inc-9', title: 'x', status: 'investigating', impact: null };
    await send(zenduty.build(openedAlert({ incident }), config(), env()));
    expect(receiver().alerts.get('statuswatch-inc-9')).toBe('critical');
    await send(zenduty.build(openedAlert({ event: 'incident.acknowledged', incident }), config(), env()));
    expect(receiver().alerts.get('statuswatch-inc-9')).toBe('acknowledged');
    await send(zenduty.build(resolvedAlert({ incident: { ...incident, status: 'resolved' } }), config(), env()));
    expect(receiver().alerts.get('statuswatch-inc-9')).toBe('resolved');
  });

  it('a maintenance occurrence is an info alert its end resolves', async () => {
    const entity = `statuswatch-maintenance-${UPGRADE.id}-${UPGRADE.starts_at}`;
    await sendAccepted(receiver(), zenduty.build(maintenanceAlert('maintenance.started'), config(), env()), 201);
    expect(receiver().alerts.get(entity)).toBe('info');
    await sendAccepted(receiver(), zenduty.build(maintenanceAlert('maintenance.ended'), config(), env()), 201);
    expect(receiver().alerts.get(entity)).toBe('resolved');
  });

  it('titles the incident, summarises it in plain text and links the console and status page', () => {
    const sent = body(zenduty.build(openedAlert(), config(), env()));
    expect(sent.message).toBe('[Acme & Sons <Ltd>] Website *prod* <b> is down');
    expect(sent.summary).toContain('Monitor: Website *prod* <b> (https://acme.example.com/health?a=1&b=2)');
    expect(sent.urls).toEqual([
      { link_url: 'http://acme.localhost:4321/monitors?incident=inc-42', link_text: 'Open in console' },
      { link_url: 'http://acme.localhost:4321/', link_text: 'Status page' },
    ]);
    const grouped = body(zenduty.build(groupedAlert(1000), config(), env()));
    expect(grouped.summary).toMatch(/…and \d+ more$/);
    expect(grouped.payload.monitor_count).toBe(1000);
    expect(grouped.payload.monitors).toHaveLength(100);
  });

  it('the fake refuses an unknown integration key', async () => {
    const answer = await send(zenduty.build(openedAlert(), config({ integration_key: 'not-the-key' }), env()));
    expect(answer.status).toBe(404);
  });

  itRefusesConfigs(zenduty.parseConfig, [
    [{}, 'integration_key', 'Integration key is required.'],
    [
      { integration_key: 'has spaces in it' },
      'integration_key',
      'Integration key must be the integration key of a Zenduty Generic Integration (letters, digits and -).',
    ],
  ]);

  it('keeps the key secret, calls only the configured host, and never groups', () => {
    expect(zenduty.secretFields).toEqual(['integration_key']);
    expect(zenduty.tenantUrls(config())).toEqual([]);
    expect(zenduty.grouping).toBe('never');
  });
});

describe.each(DB_KINDS)('Zenduty through the outbox on %s', (kind) => {
  let journey: Journey;
  beforeAll(async () => {
    journey = await runOutboxJourney(kind, receiver(), {
      type: 'zenduty',
      config: { integration_key: ZENDUTY_KEY },
      env: { ZENDUTY_API_URL: receiver().origin },
    });
  });

  it('an incident is one Zenduty alert: opened, then acknowledged, then resolved', () => {
    expect(journey.refusals).toEqual([]);
    const steps = [...journey.opened, ...journey.acknowledged, ...journey.resolved].map((x) => body(x.request));
    // The engine opens a monitor's outage as high severity: Zenduty's "error".
    expect(steps.map((s) => s.alert_type)).toEqual(['error', 'acknowledged', 'resolved']);
    expect(new Set(steps.map((s) => s.entity_id))).toEqual(new Set([`statuswatch-${journey.incidentId}`]));
    expect(receiver().alerts.get(`statuswatch-${journey.incidentId}`)).toBe('resolved');
    expect(journey.test.map((x) => body(x.request).alert_type)).toEqual(['info']);
    expect(journey.receipts.every((s) => s === 'delivered')).toBe(true);
  });

  it('the three monitors going down together are three alerts, never merged', () => {
    const sent = journey.grouped.map((x) => body(x.request));
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.entity_id)).size).toBe(3);
  });
});
