import { describe, expect, it } from 'vitest';
import { sendAccepted, receiverForFile, itRefusesConfigs } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { PAGERDUTY_ROUTING_KEY, startPagerDutyReceiver } from '../../../../tests/fixtures/receivers/pagerduty-receiver.ts';
import {
  envFor,
  groupedAlert,
  maintenanceAlert,
  openedAlert,
  resolvedAlert,
  send,
  UPGRADE,
} from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { pagerduty } from './pagerduty.ts';

const receiver = receiverForFile(startPagerDutyReceiver);

const config = () => pagerduty.parseConfig({ routing_key: PAGERDUTY_ROUTING_KEY });
const env = () => envFor({ pagerduty: receiver().origin });

describe('PagerDuty channel', () => {
  it.each([
    ['opened', openedAlert(), 'trigger'],
    ['resolved', resolvedAlert(), 'resolve'],
    ['grouped (1,000 monitors)', groupedAlert(1000), 'trigger'],
    ['acknowledged', openedAlert({ event: 'incident.acknowledged' }), 'acknowledge'],
  ])('Events API v2 accepts the %s alert as a %s event', async (_what, alert, action) => {
    const request = pagerduty.build(alert, config(), env());
    expect(request.url).toBe(`${receiver().origin}/v2/enqueue`);
    const answer = await sendAccepted(receiver(), request, 202);
    const event = JSON.parse(request.body);
    expect(event.event_action).toBe(action);
    expect(JSON.parse(answer.body)).toEqual({ status: 'success', message: 'Event processed', dedup_key: event.dedup_key });
  });

  it("triggers and resolves one PagerDuty alert: both events carry the incident's dedup_key", async () => {
    const trigger = JSON.parse(
      pagerduty.build(openedAlert({ incident: { id: 'inc-77', title: 'x', status: 'investigating', impact: null } }), config(), env()).body,
    );
    const resolve = JSON.parse(
      pagerduty.build(resolvedAlert({ incident: { id: 'inc-77', title: 'x', status: 'resolved', impact: null } }), config(), env()).body,
    );
    expect(trigger.dedup_key).toBe('statuswatch-inc-77');
    expect(resolve.dedup_key).toBe(trigger.dedup_key);
    await send(
      pagerduty.build(openedAlert({ incident: { id: 'inc-77', title: 'x', status: 'investigating', impact: null } }), config(), env()),
    );
    expect(receiver().alerts.get('statuswatch-inc-77')).toBe('triggered');
    await send(
      pagerduty.build(resolvedAlert({ incident: { id: 'inc-77', title: 'x', status: 'resolved', impact: null } }), config(), env()),
    );
    expect(receiver().alerts.get('statuswatch-inc-77')).toBe('resolved');
  });

  it('maps severities onto critical, error, warning and info, and keeps the summary within 1,024 characters', () => {
    const severityOf = (severity: 'critical' | 'high' | 'medium' | 'low' | 'info') =>
      JSON.parse(pagerduty.build(openedAlert({ severity }), config(), env()).body).payload.severity;
    expect(['critical', 'high', 'medium', 'low', 'info'].map((s) => severityOf(s as 'critical'))).toEqual([
      'critical',
      'error',
      'warning',
      'info',
      'info',
    ]);
    const long = JSON.parse(pagerduty.build(openedAlert({ title: 'x'.repeat(3000) }), config(), env()).body);
    expect(long.payload.summary).toHaveLength(1024);
    expect(long.payload).toMatchObject({
      source: 'https://acme.example.com/health?a=1&b=2',
      timestamp: '2026-11-24T10:02:00.000Z',
      class: 'incident.opened',
    });
    expect(long.links.map((l: { text: string }) => l.text)).toEqual(['Open in console', 'Status page']);
  });

  it('sends maintenance as a change event, which pages nobody', async () => {
    const request = pagerduty.build(openedAlert({ event: 'maintenance.started', severity: 'info', incident: null }), config(), env());
    expect(request.url).toBe(`${receiver().origin}/v2/change/enqueue`);
    const answer = await sendAccepted(receiver(), request, 202);
    expect(JSON.parse(answer.body)).toEqual({ status: 'success', message: 'Change event processed' });
  });

  it('names the maintenance occurrence in both change events, so its start and end pair up on the timeline', () => {
    for (const event of ['maintenance.started', 'maintenance.ended'] as const) {
      const request = pagerduty.build(maintenanceAlert(event), config(), env());
      expect(request.url).toBe(`${receiver().origin}/v2/change/enqueue`);
      expect(JSON.parse(request.body).payload.custom_details.maintenance).toEqual({
        id: UPGRADE.id,
        title: 'Database upgrade',
        starts_at: new Date(UPGRADE.starts_at).toISOString(),
        ends_at: new Date(UPGRADE.ends_at).toISOString(),
      });
    }
  });

  it('the fake refuses what PagerDuty refuses: a severity outside its four, a short routing key', async () => {
    const request = pagerduty.build(openedAlert(), config(), env());
    const event = JSON.parse(request.body);
    const bad = await send({
      ...request,
      body: JSON.stringify({ ...event, routing_key: 'short', payload: { ...event.payload, severity: 'high' } }),
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({
      status: 'invalid event',
      message: 'Event object is invalid',
      errors: [
        "Length of 'routing_key' is incorrect (should be 32 characters)",
        "'payload.severity' must be one of critical, error, warning or info",
      ],
    });
  });

  it('names a source for a push monitor, which has no target: PagerDuty drops an event whose payload.source is blank', async () => {
    const push = { id: 'm-push', name: 'Nightly backup', target: '' };
    const request = pagerduty.build(openedAlert({ monitor: push, title: 'Nightly backup is down' }), config(), env());
    const event = JSON.parse(request.body);
    expect(event.payload.source).toBe('Nightly backup (acme on StatusWatch)');
    await sendAccepted(receiver(), request, 202);
    for (const source of ['', '   ']) {
      const blank = await send({ ...request, body: JSON.stringify({ ...event, payload: { ...event.payload, source } }) });
      expect(blank.status).toBe(400);
      expect(JSON.parse(blank.body).errors).toEqual(["'payload.source' is missing or blank"]);
    }
  });

  itRefusesConfigs(pagerduty.parseConfig, [
    [{}, 'routing_key', 'Integration key is required.'],
    [{ routing_key: 'abc' }, 'routing_key', 'Integration key must be the 32-character integration key of an Events API v2 integration.'],
  ]);

  it('keeps the integration key secret and calls only the configured API host', () => {
    expect(pagerduty.secretFields).toEqual(['routing_key']);
    expect(pagerduty.tenantUrls(config())).toEqual([]);
  });
});
