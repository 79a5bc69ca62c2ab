// A push (heartbeat) monitor's alert reaches PagerDuty on both databases: the monitor misses its
// heartbeats, the real engine opens its incident, and the delivery runner sends the trigger to
// the loopback Events API v2 fake, which refuses a blank `payload.source` as PagerDuty does.
// Push monitors have no target, so the source used to be blank and such incidents never paged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { createChannel } from '../../../src/server/domain/alerts/channels.ts';
import { listDeliveries } from '../../../src/server/domain/alerts/deliveries.ts';
import { listIncidents } from '../../../src/server/domain/incidents/service.ts';
import { createMonitor } from '../../../src/server/domain/monitors/service.ts';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { PAGERDUTY_ROUTING_KEY, startPagerDutyReceiver, type PagerDutyReceiver } from '../../fixtures/receivers/pagerduty-receiver.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { engineServices, manualClock, seedTenant, type Clock } from '../engine/support.ts';

describe.each(DB_KINDS)('PagerDuty alerts of push monitors on %s', (kind) => {
  let services: Services;
  let engine: Engine;
  let clock: Clock;
  let pagerDuty: PagerDutyReceiver;
  let t: Awaited<ReturnType<typeof seedTenant>>;

  beforeAll(async () => {
    pagerDuty = await startPagerDutyReceiver();
    clock = manualClock();
    services = await engineServices(kind, { PAGERDUTY_EVENTS_URL: pagerDuty.origin }, clock.now);
    engine = createEngine(services);
    services.monitoring = { engine };
    t = await seedTenant(services);
  });
  afterAll(async () => {
    await pagerDuty?.close();
    for (const hook of services?.onShutdown ?? []) await hook();
    await services?.db.close();
  });

  it('a push monitor that misses its heartbeat pages: the trigger names a source and PagerDuty accepts it', async () => {
    const channel = await createChannel(t.adminCtx, {
      name: 'On-call',
      type: 'pagerduty',
      config: { routing_key: PAGERDUTY_ROUTING_KEY },
      events: ['incident.opened'],
    });
    const m = await createMonitor(t.adminCtx, {
      name: 'Nightly backup',
      type: 'push',
      interval_seconds: 60,
      timeout_seconds: 10,
    } as never);
    // No heartbeat ever arrives: each check past the interval and its grace finds the monitor down.
    // Steps of half an interval: a step over a whole interval would make the monitor "badly
    // overdue", which the engine re-phases instead of checking (no catch-up burst).
    for (let i = 0; i < 16 && (await listIncidents(t.adminCtx, { status: 'open' })).length === 0; i++) {
      clock.advance(31_000);
      await engine.runDueNow();
    }
    const [incident] = await listIncidents(t.adminCtx, { status: 'open' });
    expect(incident).toMatchObject({ title: 'Nightly backup is down', monitor_id: m.id });

    await runDeliveries(services, { holder: 'test', random: () => 0.5 });
    expect(pagerDuty.refusals()).toEqual([]);
    const [sent] = pagerDuty.accepted();
    const event = JSON.parse(sent.request.body);
    expect(event.event_action).toBe('trigger');
    expect(event.payload.source).toBe(`Nightly backup (${t.company.subdomain} on StatusWatch)`);
    expect(pagerDuty.alerts.get(`statuswatch-${incident.id}`)).toBe('triggered');
    expect((await listDeliveries(t.adminCtx, { channel_id: channel.id })).map((d) => d.state)).toEqual(['delivered']);
  });
});
