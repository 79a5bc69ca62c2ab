// Maintenance notices on both databases: the maintenance-notices job sends maintenance.started
// and maintenance.ended exactly once per occurrence (recurring windows every week, a window
// cancelled while running ends then), through the outbox to the channels that take those events:
// a signed webhook and the Opsgenie loopback fake, whose alert for the occurrence is opened on
// start and closed on end by one alias.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { createChannel } from '../../../src/server/domain/alerts/channels.ts';
import { cancelMaintenance, createMaintenance, deleteMaintenance } from '../../../src/server/domain/monitors/maintenance.ts';
import { createMonitor } from '../../../src/server/domain/monitors/service.ts';
import { listNotifications } from '../../../src/server/domain/notifications/service.ts';
import { maintenanceNotices } from '../../../src/server/jobs/maintenance-notices.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import { OPSGENIE_API_KEY, startOpsgenieReceiver, type OpsgenieReceiver } from '../../fixtures/receivers/opsgenie-receiver.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { engineServices, manualClock, seedTenant, type Clock } from './support.ts';
import { actorFor, ctxFor, seedUser } from '../../support/fixtures.ts';
import type { Ctx } from '../../../src/server/domain/context.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const WEEK = 7 * 24 * HOUR;

describe.each(DB_KINDS)('maintenance notices on %s', (kind) => {
  let services: Services;
  let clock: Clock;
  let opsgenie: OpsgenieReceiver;
  let hooks: WebhookReceiver;
  let t: Awaited<ReturnType<typeof seedTenant>>;
  let secret: string;

  beforeAll(async () => {
    opsgenie = await startOpsgenieReceiver();
    hooks = await startWebhookReceiver();
    clock = manualClock();
    services = await engineServices(kind, { OPSGENIE_API_URL: opsgenie.origin }, clock.now);
    t = await seedTenant(services);
    const events = ['maintenance.started', 'maintenance.ended'];
    await createChannel(t.adminCtx, { name: 'Opsgenie', type: 'opsgenie', config: { api_key: OPSGENIE_API_KEY }, events });
    secret = (await createChannel(t.adminCtx, { name: 'Hook', type: 'webhook', config: { url: hooks.url('/mw') }, events })).secret!;
    await createChannel(t.adminCtx, { name: 'Incidents only', type: 'webhook', config: { url: hooks.url('/incidents') } });
    await tick(); // the first run only sets where scanning starts
  });
  afterAll(async () => {
    await Promise.all([opsgenie?.close(), hooks?.close()]);
    await services?.db.close();
  });

  /** One run of the job at the clock's time, then the outbox's sends. */
  async function tick(advance = 0) {
    clock.advance(advance);
    await maintenanceNotices.run(services, clock.now());
    await runDeliveries(services, { holder: 'test' });
  }
  const webhookEvents = () =>
    hooks.received
      .filter((r) => r.path === '/mw')
      .map((r) => {
        const p = new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
          type: string;
          data: { maintenance: { id: string; title: string; starts_at: string; ends_at: string } | null };
        };
        return [p.type, p.data.maintenance?.starts_at];
      });

  it('a weekly window: started and ended once per occurrence, Opsgenie opens and closes one alert for each', async () => {
    const start = clock.now() + 5 * MIN;
    const m = await createMonitor(t.adminCtx, { name: 'Database', type: 'tcp', host: '127.0.0.1', port: 9, interval_seconds: 60 } as never);
    const w = await createMaintenance(t.adminCtx, {
      title: 'Database upgrade',
      starts_at: new Date(start).toISOString(),
      ends_at: new Date(start + HOUR).toISOString(),
      monitor_id: m.id,
      recurrence: 'weekly',
    });
    const iso = (ms: number) => new Date(ms).toISOString();
    const alias = (s: number) => `statuswatch-maintenance-${w.id}-${s}`;

    await tick(4 * MIN);
    expect(webhookEvents()).toEqual([]);
    await tick(2 * MIN); // started a minute ago
    await tick(MIN); // runs again: nothing new
    await maintenanceNotices.run(services, clock.now()); // a second run in the same period
    await runDeliveries(services, { holder: 'test' });
    expect(webhookEvents()).toEqual([['maintenance.started', iso(start)]]);
    expect(opsgenie.alerts.get(alias(start))).toBe('open');
    const inApp = await listNotifications(t.viewerCtx, {});
    expect(inApp.filter((n) => n.title === 'Maintenance started: Database upgrade')).toHaveLength(1);

    await tick(HOUR);
    expect(webhookEvents()).toEqual([
      ['maintenance.started', iso(start)],
      ['maintenance.ended', iso(start)],
    ]);
    expect(opsgenie.alerts.get(alias(start))).toBe('closed');

    // The next week's occurrence: its own pair, its own Opsgenie alert.
    clock.set(start + WEEK - MIN);
    await tick();
    await tick(2 * MIN);
    expect(opsgenie.alerts.get(alias(start + WEEK))).toBe('open');
    await tick(HOUR);
    expect(webhookEvents().slice(2)).toEqual([
      ['maintenance.started', iso(start + WEEK)],
      ['maintenance.ended', iso(start + WEEK)],
    ]);
    expect(opsgenie.alerts.get(alias(start + WEEK))).toBe('closed');
    expect(hooks.received.filter((r) => r.path === '/incidents')).toHaveLength(0);
  });

  it('a window cancelled while it runs ends when it is cancelled', async () => {
    const start = clock.now() + MIN;
    const w = await createMaintenance(t.adminCtx, {
      title: 'Network work',
      starts_at: new Date(start).toISOString(),
      ends_at: new Date(start + 2 * HOUR).toISOString(),
    });
    await tick(2 * MIN);
    expect(opsgenie.alerts.get(`statuswatch-maintenance-${w.id}-${start}`)).toBe('open');
    await cancelMaintenance(t.adminCtx, w.id);
    await tick(MIN);
    expect(opsgenie.alerts.get(`statuswatch-maintenance-${w.id}-${start}`)).toBe('closed');
    const ended = hooks.received.filter((r) => r.path === '/mw').at(-1)!;
    expect(JSON.parse(ended.body)).toMatchObject({ type: 'maintenance.ended', data: { maintenance: { id: w.id, title: 'Network work' } } });
  });

  it('a running window deleted by a super admin ends when it is deleted (the job no longer sees it)', async () => {
    const superCtx = ctxFor(services, actorFor(await seedUser(services, { userType: 1 }))) as Ctx;
    const start = clock.now() + MIN;
    const w = await createMaintenance(t.adminCtx, {
      title: 'Storage move',
      starts_at: new Date(start).toISOString(),
      ends_at: new Date(start + 2 * HOUR).toISOString(),
    });
    await tick(2 * MIN);
    expect(opsgenie.alerts.get(`statuswatch-maintenance-${w.id}-${start}`)).toBe('open');
    clock.advance(MIN);
    await deleteMaintenance(superCtx, w.id);
    await tick(MIN);
    expect(opsgenie.alerts.get(`statuswatch-maintenance-${w.id}-${start}`)).toBe('closed');
    const mine = hooks.received.filter((r) => r.path === '/mw').filter((r) => JSON.parse(r.body).data.maintenance?.id === w.id);
    expect(mine.map((r) => JSON.parse(r.body).type)).toEqual(['maintenance.started', 'maintenance.ended']);
    const inApp = await listNotifications(t.viewerCtx, {});
    expect(inApp.filter((n) => n.title === 'Maintenance ended: Storage move')).toHaveLength(1);

    // A window deleted before it starts announces nothing.
    const later = await createMaintenance(t.adminCtx, {
      title: 'Never ran',
      starts_at: new Date(clock.now() + HOUR).toISOString(),
      ends_at: new Date(clock.now() + 2 * HOUR).toISOString(),
    });
    await deleteMaintenance(superCtx, later.id);
    await tick(2 * HOUR);
    expect(hooks.received.filter((r) => r.body.includes(later.id))).toHaveLength(0);
  });
});
