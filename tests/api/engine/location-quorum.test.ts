// The result writer with several locations, on both databases: each location confirms its own
// state, the monitor goes down only when the quorum of online locations agrees, the alert names
// where it is down, an offline location counts neither way, and results from a location the
// monitor does not name are not stored. (Real probe processes feeding this through the probe
// API are tested in tests/api/probes/.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { writeBatch, type PendingResult } from '../../../src/server/engine/result-writer.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { engineServices, httpMonitorRow, manualClock, seedTenant } from './support.ts';
import type { CheckOutcome } from '../../../src/server/engine/checkers/types.ts';
import { buildSlaReport } from '../../../src/server/domain/reports/build.ts';
import { dayStart } from '../../../src/lib/timeline.ts';
import { reportCsv } from '../../../src/server/domain/reports/files.ts';
import { getResponseTimes } from '../../../src/server/domain/monitors/response-times.ts';

const up: CheckOutcome = { status: 'operational', responseTimeMs: 20, httpCode: 200, error: null, timings: null, certExpiresAt: null };
const down: CheckOutcome = {
  status: 'down',
  responseTimeMs: null,
  httpCode: null,
  error: 'Connection refused',
  timings: null,
  certExpiresAt: null,
};

describe.each(DB_KINDS)('quorum over locations, on %s', (kind) => {
  let services: Services;
  const clock = manualClock(Date.UTC(2026, 10, 29, 10, 0, 0));
  let companyId: string;
  let adminCtx: Awaited<ReturnType<typeof seedTenant>>['adminCtx'];
  const monitorId = 'mon-quorum';

  beforeAll(async () => {
    services = await engineServices(kind, {}, clock.now);
    const tenant = await seedTenant(services);
    companyId = tenant.company.id;
    adminCtx = tenant.adminCtx;
    const now = clock.now();
    await services.db.k
      .insertInto('probe_locations')
      .values([
        { id: 'loc-fra', num: 1, slug: 'eu-west', name: 'Frankfurt', company_id: null, created_at: now, created_by: null },
        { id: 'loc-iad', num: 2, slug: 'us-east', name: 'Virginia', company_id: null, created_at: now, created_by: null },
        { id: 'loc-sin', num: 3, slug: 'ap-south', name: 'Singapore', company_id: null, created_at: now, created_by: null },
      ])
      .execute();
    await services.db.k
      .insertInto('probe_tokens')
      .values({
        id: 'tok',
        location_id: 'loc-fra',
        name: 't',
        token_hash: 'h'.repeat(64),
        token_prefix: 'swp_x',
        created_at: now,
        created_by: null,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    for (const loc of ['loc-fra', 'loc-iad', 'loc-sin'])
      await services.db.k
        .insertInto('probes')
        .values({
          id: `p-${loc}`,
          location_id: loc,
          token_id: 'tok',
          instance: loc,
          version: '0.1.0',
          first_seen_at: now,
          last_seen_at: now,
          checks_per_second: null,
          capabilities: '',
          lag_ms: null,
        })
        .execute();
    const row = httpMonitorRow({
      id: monitorId,
      companyId,
      name: 'Shop',
      url: 'http://127.0.0.1:9/',
      intervalSeconds: 60,
      timeoutSeconds: 5,
      confirmations: 2,
      nextDueAt: now + 3_600_000,
      createdAt: now,
    });
    await services.db.k
      .insertInto('monitors')
      .values({ ...row, locations: JSON.stringify(['eu-west', 'us-east', 'ap-south']), run_local: false })
      .execute();
  });
  afterAll(async () => {
    await services?.db.close();
  });

  let silent: string[] = [];
  /** One round: each location's outcome, a minute after the last; the probes (but the silent ones) call meanwhile. */
  async function round(outcomes: Record<number, CheckOutcome>): Promise<void> {
    clock.advance(60_000);
    let seen = services.db.k.updateTable('probes').set({ last_seen_at: clock.now() });
    if (silent.length) seen = seen.where('location_id', 'not in', silent);
    await seen.execute();
    const batch: PendingResult[] = Object.entries(outcomes).map(([loc, outcome], i) => ({
      monitorId,
      companyId,
      checkedAt: clock.now() + i,
      outcome,
      leaseOwner: null,
      location: Number(loc),
    }));
    await writeBatch(services.db, batch, clock.now() + 10, services.monitorIncidents!);
  }
  const monitor = () => services.db.k.selectFrom('monitors').selectAll().where('id', '=', monitorId).executeTakeFirstOrThrow();
  const incidents = () => services.db.k.selectFrom('incidents').selectAll().where('monitor_id', '=', monitorId).execute();
  const states = async () =>
    Object.fromEntries(
      (
        await services.db.k
          .selectFrom('monitor_location_states')
          .select(['location', 'status'])
          .where('monitor_id', '=', monitorId)
          .execute()
      ).map((r) => [r.location, r.status]),
    );

  it('all up: operational, each location with its own state', async () => {
    await round({ 1: up, 2: up, 3: up });
    expect((await monitor()).status).toBe('operational');
    expect(await states()).toEqual({ 1: 'operational', 2: 'operational', 3: 'operational' });
  });

  it('one location failing, confirmed, is degraded and opens no incident', async () => {
    for (let i = 0; i < 4; i++) await round({ 1: down, 2: up, 3: up });
    expect(await states()).toEqual({ 1: 'down', 2: 'operational', 3: 'operational' });
    const m = await monitor();
    expect(m.status).toBe('degraded');
    expect(m.last_error).toBe('Frankfurt: Connection refused');
    expect(await incidents()).toHaveLength(0);
  });

  it('two of three down after their confirmations: down, and the alert names where', async () => {
    await round({ 1: down, 2: down, 3: up });
    // Virginia's first failure waits for its confirmation (confirmations = 2)
    expect((await monitor()).status).toBe('degraded');
    expect(await incidents()).toHaveLength(0);
    await round({ 1: down, 2: down, 3: up });
    expect((await monitor()).status).toBe('down');
    const open = await incidents();
    expect(open).toHaveLength(1);
    expect(JSON.parse(open[0].down_where!)).toEqual({
      text: 'from Frankfurt and Virginia, 2 of 3 locations; Singapore sees it up',
      down: ['eu-west', 'us-east'],
      up: ['ap-south'],
      absent: [],
    });
    const sent = await services.db.k
      .selectFrom('notifications')
      .select(['message', 'metadata'])
      .where('type', '=', 'monitor_incident')
      .execute();
    expect(sent.length).toBeGreaterThan(0);
    expect(sent[0].message).toBe('Shop is down from Frankfurt and Virginia, 2 of 3 locations; Singapore sees it up. Connection refused');
    expect(JSON.parse(sent[0].metadata!).locations).toEqual({ down: ['eu-west', 'us-east'], up: ['ap-south'], absent: [] });
  });

  it('recovery in one location brings it back to degraded and resolves the incident', async () => {
    await round({ 1: down, 2: up, 3: up });
    await round({ 1: down, 2: up, 3: up });
    expect((await monitor()).status).toBe('degraded');
    const [inc] = await incidents();
    expect(inc.status).toBe('resolved');
  });

  it('an offline location counts neither way', async () => {
    // Singapore's probe falls silent; Frankfurt and Virginia both down then is 2 of 2.
    silent = ['loc-sin'];
    await round({ 1: down, 2: down });
    await round({ 1: down, 2: down });
    expect((await monitor()).status).toBe('down');
    const sent = await services.db.k
      .selectFrom('notifications')
      .select('message')
      .where('type', '=', 'monitor_incident')
      .orderBy('created_at', 'desc')
      .execute();
    expect(sent.some((s) => s.message.includes('2 of 3 locations; no result from Singapore'))).toBe(true);
  });

  it('keeps every location apart in storage and drops results from a location the monitor does not name', async () => {
    const before = await services.db.k.selectFrom('check_results').select(['location']).where('monitor_id', '=', monitorId).execute();
    await round({ 0: up, 1: down });
    const after = await services.db.k.selectFrom('check_results').select(['location']).where('monitor_id', '=', monitorId).execute();
    expect(after.length - before.length).toBe(1); // local (0) is not one of its locations
    const byLocation = new Map<number, number>();
    for (const r of after) byLocation.set(r.location, (byLocation.get(r.location) ?? 0) + 1);
    expect([...byLocation.keys()].sort()).toEqual([1, 2, 3]);
    const hours = await services.db.k
      .selectFrom('monitor_location_rollups_hourly')
      .select(['location', 'checks', 'failures'])
      .orderBy('location')
      .execute();
    expect(hours.map((h) => h.location)).toEqual([1, 2, 3]);
    expect(hours[0].failures).toBe(hours[0].checks - 1); // Frankfurt: up once, then down
  });

  it('the SLA report gives the quorum uptime with each location own figures beside it', async () => {
    const from = dayStart(clock.now());
    const report = await buildSlaReport(
      services.db,
      { id: companyId, name: 'Co' },
      { from, to: from + 86_400_000 },
      [monitorId],
      clock.now(),
    );
    const [line] = report.monitors;
    expect(line.locations.map((l) => [l.slug, l.name])).toEqual([
      ['eu-west', 'Frankfurt'],
      ['us-east', 'Virginia'],
      ['ap-south', 'Singapore'],
    ]);
    const uptime = Object.fromEntries(line.locations.map((l) => [l.slug, l.uptime_percent!]));
    // Frankfurt failed 11 of its 14 checks; Singapore never: the monitor (quorum) sits between.
    expect(uptime['ap-south']).toBe(100);
    expect(uptime['eu-west']).toBeLessThan(line.uptime_percent!);
    expect(line.uptime_percent!).toBeLessThan(100);
    const csv = reportCsv({ ...report, period: null } as never);
    expect(csv).toContain(`${monitorId}@eu-west`);
    expect(csv).toContain('Shop from Frankfurt');
  });

  it('the chart data has each location series beside the total', async () => {
    const hours = await getResponseTimes(adminCtx, monitorId, { range: '24h' });
    expect(hours.locations.map((l) => l.name)).toEqual(['Frankfurt', 'Virginia', 'Singapore']);
    for (const l of hours.locations) expect(l.points).toHaveLength(hours.points.length);
    const now = hours.locations.map((l) => l.points.at(-1)!);
    expect(now[2].avg).toBe(20); // Singapore answered every check in 20 ms
    expect(now[0].failures).toBeGreaterThan(0);
    const checks = await getResponseTimes(adminCtx, monitorId, { range: 'checks' });
    expect(checks.locations.map((l) => l.slug)).toEqual(['eu-west', 'us-east', 'ap-south']);
    expect(checks.locations.reduce((n, l) => n + l.points.length, 0)).toBe(checks.points.length);
  });

  it('each location of the monitor read has its own 24-hour uptime', async () => {
    const { getMonitor } = await import('../../../src/server/domain/monitors/service.ts');
    const m = (await getMonitor(adminCtx, monitorId)) as { location_status: Array<{ slug: string; uptime_24h: number | null }> };
    const up = Object.fromEntries(m.location_status.map((l) => [l.slug, l.uptime_24h]));
    expect(up['ap-south']).toBe(100);
    expect(up['eu-west']).toBeLessThan(30);
  });

  it('a location flagged by the per-location canary counts neither way, though its probe still calls', async () => {
    silent = [];
    await services.db.k.updateTable('probe_locations').set({ flagged_since: clock.now() }).where('id', '=', 'loc-iad').execute();
    await round({ 1: down, 2: down, 3: up });
    await round({ 1: down, 2: down, 3: up });
    // Frankfurt down and Singapore up vote; Virginia's failures are its own network's
    expect((await monitor()).status).toBe('degraded');
    await services.db.k.updateTable('probe_locations').set({ flagged_since: null }).where('id', '=', 'loc-iad').execute();
    await round({ 1: down, 2: down, 3: up });
    expect((await monitor()).status).toBe('down');
  });
});
