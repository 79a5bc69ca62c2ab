import { beforeAll, describe, expect, it } from 'vitest';
import { itRefusesConfigs, receiverForFile, sendAccepted } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { GROUPED_NAMES, type Journey, runOutboxJourney } from '../../../../tests/fixtures/receivers/outbox-journey.ts';
import {
  envFor,
  groupedAlert,
  maintenanceAlert,
  openedAlert,
  resolvedAlert,
  send,
  UPGRADE,
} from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import {
  SPLUNK_API_KEY,
  SPLUNK_ROUTING_KEY,
  startSplunkOncallReceiver,
} from '../../../../tests/fixtures/receivers/splunk-oncall-receiver.ts';
import { DB_KINDS } from '../../../../tests/support/test-db.ts';
import { splunkOncall } from './splunk-oncall.ts';

const receiver = receiverForFile(startSplunkOncallReceiver);

const config = (over: Record<string, unknown> = {}) =>
  splunkOncall.parseConfig({ api_key: SPLUNK_API_KEY, routing_key: SPLUNK_ROUTING_KEY, ...over });
const env = () => envFor({ splunkOncall: receiver().origin });
const body = (request: { body: string }) => JSON.parse(request.body);

describe('Splunk On-Call channel', () => {
  it.each([
    ['opened', openedAlert(), 'CRITICAL', 'statuswatch-inc-42'],
    ['acknowledged', openedAlert({ event: 'incident.acknowledged' }), 'ACKNOWLEDGEMENT', 'statuswatch-inc-42'],
    ['resolved', resolvedAlert(), 'RECOVERY', 'statuswatch-inc-42'],
    ['grouped (1,000 monitors)', groupedAlert(1000), 'CRITICAL', 'statuswatch-incident.opened-m-1'],
    ['test', openedAlert({ event: 'test', severity: 'info', incident: null, monitor: null }), 'INFO', 'statuswatch-msg_2f1c9a0b7d'],
    ['medium-severity', openedAlert({ severity: 'medium' }), 'WARNING', 'statuswatch-inc-42'],
  ])('Splunk On-Call accepts the %s alert as %s of its entity', async (_what, alert, type, entity) => {
    const request = splunkOncall.build(alert, config(), env());
    expect(request.url).toBe(`${receiver().origin}/integrations/generic/20131114/alert/${SPLUNK_API_KEY}/${SPLUNK_ROUTING_KEY}`);
    const answer = await sendAccepted(receiver(), request, 200);
    expect(JSON.parse(answer.body)).toEqual({ result: 'success', entity_id: entity });
    expect(body(request)).toMatchObject({
      message_type: type,
      monitoring_tool: 'StatusWatch',
      state_start_time: Math.floor(alert.occurredAt / 1000),
    });
  });

  it('opens, acknowledges and recovers one Splunk On-Call incident per incident', async () => {
    const incident = { id: 'inc-9', title: 'x', status: 'investigating', impact: null };
    await send(splunkOncall.build(openedAlert({ incident }), config(), env()));
    expect(receiver().entities.get('statuswatch-inc-9')).toBe('CRITICAL');
    await send(splunkOncall.build(openedAlert({ event: 'incident.acknowledged', incident }), config(), env()));
    expect(receiver().entities.get('statuswatch-inc-9')).toBe('ACKNOWLEDGEMENT');
    await send(splunkOncall.build(resolvedAlert({ incident: { ...incident, status: 'resolved' } }), config(), env()));
    expect(receiver().entities.get('statuswatch-inc-9')).toBe('RECOVERY');
  });

  it('a maintenance occurrence is an INFO entity its end recovers', async () => {
    const entity = `statuswatch-maintenance-${UPGRADE.id}-${UPGRADE.starts_at}`;
    await sendAccepted(receiver(), splunkOncall.build(maintenanceAlert('maintenance.started'), config(), env()), 200);
    expect(receiver().entities.get(entity)).toBe('INFO');
    await sendAccepted(receiver(), splunkOncall.build(maintenanceAlert('maintenance.ended'), config(), env()), 200);
    expect(receiver().entities.get(entity)).toBe('RECOVERY');
  });

  it('names the monitor and lists a grouped alert in state_message, as plain text', () => {
    const single = body(splunkOncall.build(openedAlert(), config(), env()));
    expect(single).toMatchObject({
      entity_display_name: '[Acme & Sons <Ltd>] Website *prod* <b> is down',
      host_name: 'https://acme.example.com/health?a=1&b=2',
    });
    expect(single.state_message).toContain('Monitor: Website *prod* <b> (https://acme.example.com/health?a=1&b=2)');
    const grouped = body(splunkOncall.build(groupedAlert(1000), config(), env())).state_message as string;
    expect(grouped).toContain('- Service 1 <api> & co (https://svc-1.acme.example.com/health)');
    expect(grouped).toMatch(/…and \d+ more\n/);
  });

  it('the fake refuses a wrong API key', async () => {
    const answer = await send(splunkOncall.build(openedAlert(), config({ api_key: '00000000-0000-0000-0000-000000000000' }), env()));
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ result: 'failure' });
  });

  itRefusesConfigs(splunkOncall.parseConfig, [
    [{ routing_key: 'ops' }, 'api_key', 'REST API key is required.'],
    [
      { api_key: 'abc', routing_key: 'ops' },
      'api_key',
      'REST API key must be the key of a Splunk On-Call REST endpoint (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx).',
    ],
    [{ api_key: SPLUNK_API_KEY }, 'routing_key', 'Routing key is required.'],
    [
      { api_key: SPLUNK_API_KEY, routing_key: 'ops/team' },
      'routing_key',
      'Routing key must be a routing key (letters, digits, . - and _).',
    ],
  ]);

  it('keeps the API key secret, calls only the configured host, and never groups', () => {
    expect(splunkOncall.secretFields).toEqual(['api_key']);
    expect(splunkOncall.tenantUrls(config())).toEqual([]);
    expect(splunkOncall.grouping).toBe('never');
  });
});

describe.each(DB_KINDS)('Splunk On-Call through the outbox on %s', (kind) => {
  let journey: Journey;
  beforeAll(async () => {
    journey = await runOutboxJourney(kind, receiver(), {
      type: 'splunk-oncall',
      config: { api_key: SPLUNK_API_KEY, routing_key: SPLUNK_ROUTING_KEY },
      env: { SPLUNK_ONCALL_API_URL: receiver().origin },
    });
  });

  it('an incident is one entity: CRITICAL, then ACKNOWLEDGEMENT, then RECOVERY', () => {
    expect(journey.refusals).toEqual([]);
    const steps = [...journey.opened, ...journey.acknowledged, ...journey.resolved].map((x) => body(x.request));
    expect(steps.map((s) => s.message_type)).toEqual(['CRITICAL', 'ACKNOWLEDGEMENT', 'RECOVERY']);
    expect(new Set(steps.map((s) => s.entity_id))).toEqual(new Set([`statuswatch-${journey.incidentId}`]));
    expect(receiver().entities.get(`statuswatch-${journey.incidentId}`)).toBe('RECOVERY');
    expect(journey.test.map((x) => body(x.request).message_type)).toEqual(['INFO']);
    expect(journey.receipts.every((s) => s === 'delivered')).toBe(true);
  });

  it('the three monitors going down together are three incidents, never merged', () => {
    const sent = journey.grouped.map((x) => body(x.request));
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.entity_id)).size).toBe(3);
    const names = sent.map((s) => s.entity_display_name as string);
    for (const name of GROUPED_NAMES) expect(names.filter((n) => n.endsWith(`] ${name} is down`))).toHaveLength(1);
  });
});
