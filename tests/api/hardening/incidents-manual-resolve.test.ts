// A manual incident is resolved only by a person (issue 13): the engine resolved a manual
// incident tied to a monitor at the next healthy check, seconds after an admin's update.
// Automatic incidents still resolve themselves when their monitor recovers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { addIncidentUpdate, createIncident, getIncident, listIncidents } from '../../../src/server/domain/incidents/service.ts';
import { createMonitor, getMonitor } from '../../../src/server/domain/monitors/service.ts';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { engineServices, manualClock, seedTenant, type Clock } from '../engine/support.ts';

describe.each(DB_KINDS)('manual incidents and the engine on %s', (kind) => {
  let services: Services;
  let engine: Engine;
  let http: HttpTargets;
  let clock: Clock;
  let t: Awaited<ReturnType<typeof seedTenant>>;

  beforeAll(async () => {
    http = await startHttpTargets();
    clock = manualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
    services = await engineServices(kind, {}, clock.now);
    engine = createEngine(services);
    services.monitoring = { engine };
    t = await seedTenant(services);
  });
  afterAll(async () => {
    await http?.close();
    await services?.db.close();
  });

  const step = async () => {
    clock.advance(60_000);
    await engine.runDueNow();
  };

  it('keeps a manual incident on a healthy monitor open through updates and checks until a person resolves it', async () => {
    http.setUp(true);
    const m = await createMonitor(t.adminCtx, {
      name: 'Checkout',
      type: 'http',
      url: http.url('/flaky'),
      interval_seconds: 60,
      timeout_seconds: 2,
      is_public: true,
    } as never);
    await engine.runDueNow();
    expect((await getMonitor(t.adminCtx, m.id)).status).toBe('operational');

    const inc = await createIncident(t.adminCtx, {
      title: 'Payments delayed at our provider',
      severity: 'high',
      status: 'investigating',
      message: 'Card payments take minutes to confirm.',
      monitor_id: m.id,
    });
    await step();
    await addIncidentUpdate(t.adminCtx, inc.id, { status: 'identified', message: 'The provider confirmed the fault.' });
    await step();
    await step();

    const open = await getIncident(t.adminCtx, inc.id);
    expect(open.status).toBe('identified');
    expect(open.resolved_at).toBeNull();
    expect(open.updates.map((u) => u.status)).toEqual(['investigating', 'identified']);

    const resolved = await addIncidentUpdate(t.adminCtx, inc.id, { status: 'resolved', message: 'Payments are instant again.' });
    expect(resolved.resolved_at).not.toBeNull();
  });

  it('still opens and resolves automatic incidents by itself', async () => {
    http.setUp(true);
    const m = await createMonitor(t.adminCtx, {
      name: 'Search',
      type: 'http',
      url: http.url('/flaky'),
      interval_seconds: 60,
      timeout_seconds: 2,
      is_public: true,
    } as never);
    await engine.runDueNow();
    http.setUp(false);
    await step();
    await step();
    const [opened] = await listIncidents(t.adminCtx, { monitor_id: m.id });
    expect(opened).toMatchObject({ status: 'open', automatic: true });
    http.setUp(true);
    await step();
    await step();
    const [after] = await listIncidents(t.adminCtx, { monitor_id: m.id });
    expect(after.status).toBe('resolved');
  });
});
