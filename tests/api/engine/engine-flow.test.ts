// The engine end to end on both databases, against a real loopback target whose health the test
// scripts: confirmations, one incident per outage, one notification per user, recovery,
// maintenance silence, and uptime equal to the ground truth of the schedule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx, Services } from '../../../src/server/domain/context.ts';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { createMonitor, getMonitor, getSummary, getUptime, listChecks } from '../../../src/server/domain/monitors/service.ts';
import { createMaintenance } from '../../../src/server/domain/monitors/maintenance.ts';
import { getIncident, listIncidents, recentIncidents } from '../../../src/server/domain/incidents/service.ts';
import { listNotifications, putPreferences } from '../../../src/server/domain/notifications/service.ts';
import { actorFor, ctxFor, seedUser } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { engineServices, manualClock, seedTenant, type Clock } from './support.ts';
import { rollupsRepo } from '../../../src/server/db/repositories/rollups-repo.ts';

describe.each(DB_KINDS)('engine flow on %s', (kind) => {
  let services: Services;
  let engine: Engine;
  let http: HttpTargets;
  let clock: Clock;
  let t: Awaited<ReturnType<typeof seedTenant>>;
  let superCtx: Ctx;
  let otherCtx: Ctx;

  beforeAll(async () => {
    http = await startHttpTargets();
    clock = manualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
    services = await engineServices(kind, {}, clock.now);
    engine = createEngine(services);
    services.monitoring = { engine };
    t = await seedTenant(services);
    superCtx = ctxFor(services, actorFor(await seedUser(services, { userType: 1 })));
    const other = await seedTenant(services);
    otherCtx = other.adminCtx;
  });
  afterAll(async () => {
    await http?.close();
    await services?.db.close();
  });

  // Exactly one interval: each monitor is due once per step (its phase stays put).
  const step = async (ms = 60_000) => {
    clock.advance(ms);
    await engine.runDueNow();
  };

  it('reports down after the confirmations, opens one incident, notifies each user once, and resolves on recovery', async () => {
    http.setUp(true);
    const m = await createMonitor(t.adminCtx, {
      name: 'Checkout API',
      type: 'http',
      url: http.url('/flaky'),
      interval_seconds: 60,
      timeout_seconds: 2,
      is_public: true,
      // marked critical: its outage alone is a major outage, and its incident opens as critical
      is_critical: true,
    } as never);
    expect(m.confirmations).toBe(2);
    expect(m.status).toBe('unknown');
    await engine.runDueNow(); // a new monitor is checked at once
    expect((await getMonitor(t.adminCtx, m.id)).status).toBe('operational');

    http.setUp(false);
    await step();
    expect((await getMonitor(t.adminCtx, m.id)).status).toBe('operational'); // 1 of 2
    expect(await listIncidents(t.adminCtx, {})).toHaveLength(0);
    await step();
    const down = await getMonitor(t.adminCtx, m.id);
    expect(down.status).toBe('down');
    expect(down.last_http_code).toBe(503);
    expect(down.last_error).toBe('HTTP 503 is not an accepted status code');
    await step();
    await step();

    const incidents = await listIncidents(t.adminCtx, {});
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({
      title: 'Checkout API is down',
      severity: 'critical',
      impact: 'critical',
      status: 'open',
      monitor_id: m.id,
      resolved_at: null,
    });
    const summary = await getSummary(t.adminCtx);
    expect(summary).toMatchObject({ up: 0, down: 1, paused: 0, total: 1, criticalAlerts: 1 });
    expect(summary.lastCheck).toBe(new Date(clock.now()).toISOString());
    const recent = await recentIncidents(superCtx, { limit: 10 });
    expect(recent.find((i) => i.id === incidents[0].id)).toMatchObject({
      tenantId: t.company.id,
      tenantName: `Company ${t.company.subdomain}`,
      status: 'open',
    });

    for (const ctx of [t.adminCtx, t.viewerCtx]) {
      const n = await listNotifications(ctx, { notification_type: 'monitor_incident' });
      expect(n).toHaveLength(1);
      expect(n[0]).toMatchObject({
        title: 'Checkout API is down',
        severity: 'critical',
        is_read: false,
        action_url: `/monitors/incidents/${incidents[0].id}`,
      });
    }
    expect(await listNotifications(superCtx, {})).toHaveLength(0);
    expect(await listNotifications(otherCtx, {})).toHaveLength(0);

    http.setUp(true);
    await step();
    expect((await getMonitor(t.adminCtx, m.id)).status).toBe('down'); // recovery is confirmed too
    await step();
    expect((await getMonitor(t.adminCtx, m.id)).status).toBe('operational');
    const resolved = await getIncident(t.adminCtx, incidents[0].id);
    expect(resolved.status).toBe('resolved');
    expect(resolved.resolved_at).toBe(new Date(clock.now()).toISOString());
    expect(resolved.updates.map((u) => u.status)).toEqual(['open', 'resolved']);
    const after = await listNotifications(t.viewerCtx, { notification_type: 'monitor_incident' });
    expect(after.map((n) => n.title)).toEqual(['Checkout API is back up', 'Checkout API is down']);
    expect(after[0].message).toBe('Checkout API recovered after 4 minutes down.');
  });

  it('honours preferences: a user who turned monitor incidents off gets none', async () => {
    await putPreferences(t.viewerCtx, { monitor_incidents: false });
    http.setUp(false);
    const m = await createMonitor(t.adminCtx, {
      name: 'Private API',
      type: 'http',
      url: http.url('/flaky'),
      interval_seconds: 60,
      timeout_seconds: 2,
      confirmations: 1,
      is_public: false,
    } as never);
    await engine.runDueNow();
    const [inc] = await listIncidents(t.adminCtx, { monitor_id: m.id });
    expect(inc).toMatchObject({ severity: 'high', title: 'Private API is down' });
    expect((await listNotifications(t.adminCtx, {})).filter((n) => n.title === 'Private API is down')).toHaveLength(1);
    expect((await listNotifications(t.viewerCtx, {})).filter((n) => n.title === 'Private API is down')).toHaveLength(0);
    http.setUp(true);
    await step();
  });

  it('stays silent in a maintenance window and counts those checks apart', async () => {
    http.setUp(true);
    const m = await createMonitor(t.adminCtx, {
      name: 'Batch job',
      type: 'http',
      url: http.url('/flaky'),
      interval_seconds: 60,
      timeout_seconds: 2,
      confirmations: 1,
      is_public: true,
    } as never);
    await engine.runDueNow();
    await createMaintenance(t.adminCtx, {
      title: 'Upgrade',
      monitor_id: m.id,
      starts_at: new Date(clock.now()).toISOString(),
      ends_at: new Date(clock.now() + 3_600_000).toISOString(),
    });
    http.setUp(false);
    await step();
    await step();
    const v = await getMonitor(t.adminCtx, m.id);
    expect(v.status).toBe('down');
    expect(v.in_maintenance).toBe(true);
    expect(await listIncidents(t.adminCtx, { monitor_id: m.id })).toHaveLength(0);
    expect((await listNotifications(t.adminCtx, {})).filter((n) => n.title.startsWith('Batch job'))).toHaveLength(0);
    const up = await getUptime(t.adminCtx, m.id);
    expect(up['24h']).toMatchObject({ checks: 3, failures: 0, uptime: 100 });
    const during = await getSummary(t.adminCtx); // planned work is not an outage on the dashboard
    // The window ends with the target still down: now the incident opens and users hear of it.
    await services.db.k.updateTable('maintenance_windows').set({ ends_at: clock.now() }).where('monitor_id', '=', m.id).execute();
    await step();
    const after = await getSummary(t.adminCtx);
    expect(after.down).toBe(during.down + 1);
    expect(after.total).toBe(during.total);
    expect(await listIncidents(t.adminCtx, { monitor_id: m.id })).toHaveLength(1);
    expect((await listNotifications(t.adminCtx, {})).filter((n) => n.title === 'Batch job is down')).toHaveLength(1);
    http.setUp(true);
    await step();
  });

  it('computes uptime equal to the ground truth of a scripted schedule, from rollups', async () => {
    const schedule = [true, true, false, true, false, false, true, true, true, true, true, false]; // 8 of 12 up
    http.setUp(schedule[0]);
    const m = await createMonitor(t.adminCtx, {
      name: 'Scripted',
      type: 'http',
      url: http.url('/flaky'),
      interval_seconds: 60,
      timeout_seconds: 2,
      confirmations: 3,
      is_public: false,
    } as never);
    await engine.runDueNow();
    for (const up of schedule.slice(1)) {
      http.setUp(up);
      clock.advance(61_000);
      // Exactly this monitor is due: the others keep their own cadence.
      await services.db.k
        .updateTable('monitors')
        .set({ next_due_at: clock.now() + 3_600_000 })
        .where('id', '!=', m.id)
        .execute();
      await services.db.k.updateTable('monitors').set({ next_due_at: clock.now() }).where('id', '=', m.id).execute();
      await engine.runDueNow();
    }
    const checks = await listChecks(t.adminCtx, m.id, { limit: 100 });
    expect(checks.map((c) => c.status === 'operational').reverse()).toEqual(schedule);
    const u = await getUptime(t.adminCtx, m.id);
    expect(u['24h']).toEqual({ uptime: 66.667, checks: 12, failures: 4 });
    expect(u['7d']).toEqual({ uptime: 66.667, checks: 12, failures: 4 });
    expect(u['90d'].checks).toBe(12);
    expect(u.avg_response_time_24h).toBeGreaterThan(0);
    const hourly = await rollupsRepo(services.db).range('hourly', [m.id], 0, Number.MAX_SAFE_INTEGER);
    expect(hourly.reduce((a, r) => a + r.checks, 0)).toBe(12);
    expect(hourly.every((r) => r.p95_response_ms !== null)).toBe(true);
  });
});
