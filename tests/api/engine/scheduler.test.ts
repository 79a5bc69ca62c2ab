// Scheduling rules on both databases: no catch-up burst after downtime, a dead worker's lease
// expires, the per-company concurrency cap, retention pruning; and the kind-specific warnings
// (certificate expiring or invalid, DNS failing or changing) reach users once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import { pruneResults } from '../../../src/server/engine/retention.ts';
import { createMonitor, getMonitor, getUptime, listChecks } from '../../../src/server/domain/monitors/service.ts';
import { listNotifications } from '../../../src/server/domain/notifications/service.ts';
import { getIncident, listIncidents } from '../../../src/server/domain/incidents/service.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { startTlsTargets, type TlsTargets } from '../../fixtures/targets/tls-targets.ts';
import { startDnsServer, type DnsTarget } from '../../fixtures/targets/dns-targets.ts';
import { engineServices, manualClock, seedTenant, type Clock } from './support.ts';
import { waitFor } from '../../support/wait-for.ts';

describe.each(DB_KINDS)('scheduler and warnings on %s', (kind) => {
  let services: Services;
  let clock: Clock;
  let http: HttpTargets;
  let tls: TlsTargets;
  let dns: DnsTarget;

  beforeAll(async () => {
    [http, tls, dns] = await Promise.all([startHttpTargets(), startTlsTargets(), startDnsServer({ answer: true })]);
    clock = manualClock(Date.now());
    services = await engineServices(kind, {}, clock.now);
    services.monitoring = { extraCa: [tls.caPem] };
  });
  afterAll(async () => {
    await Promise.all([http?.close(), tls?.close(), dns?.close()]);
    await services?.db.close();
  });

  const k = () => services.db.k;

  it('stops within its grace while a target hangs, writing nothing half-done and handing the lease back', async () => {
    const t = await seedTenant(services);
    const engine = createEngine(services, { stopGraceMs: 300, tickMs: 20 });
    const m = await createMonitor(t.adminCtx, {
      name: 'hangs',
      type: 'http',
      url: http.url('/slow-headers'),
      interval_seconds: 60,
      timeout_seconds: 60,
      is_public: false,
    } as never);
    engine.start();
    await waitFor(() => engine.stats.inFlight > 0, { what: 'the check in flight' }).catch(() => undefined);
    expect(engine.stats.inFlight).toBe(1);
    const s0 = Date.now();
    await engine.stop();
    expect(Date.now() - s0).toBeLessThan(3000); // not the check's 60 s time-out
    expect(await listChecks(t.adminCtx, m.id, {})).toEqual([]); // no made-up "timed out" result
    const row = await k().selectFrom('monitors').select(['lease_owner']).where('id', '=', m.id).executeTakeFirstOrThrow();
    expect(row.lease_owner).toBeNull(); // the next process runs it at once
    await k().deleteFrom('monitors').where('id', '=', m.id).execute(); // keep the hanging target out of the other tests
  });

  it("runs a monitor once after downtime (no catch-up burst) and lets a dead worker's lease expire", async () => {
    const t = await seedTenant(services);
    const engine = createEngine(services);
    const m = await createMonitor(t.adminCtx, {
      name: 'late',
      type: 'http',
      url: http.url('/count/late'),
      interval_seconds: 60,
      timeout_seconds: 2,
      is_public: false,
    } as never);
    await engine.runDueNow();
    // The engine was down for ten intervals.
    clock.advance(10 * 60_000);
    for (let i = 0; i < 5; i++) await engine.runDueNow();
    const after = (await listChecks(t.adminCtx, m.id, {})).length;
    expect(after).toBeLessThanOrEqual(2); // the first check, and at most one late one: never ten
    const row = await k().selectFrom('monitors').select('next_due_at').where('id', '=', m.id).executeTakeFirstOrThrow();
    expect(row.next_due_at).toBeGreaterThan(clock.now()); // back on its own phase
    expect(row.next_due_at).toBeLessThanOrEqual(clock.now() + 60_000 + 1000);

    // A worker took the check and died: its lease blocks others until it expires.
    await k()
      .updateTable('monitors')
      .set({ next_due_at: clock.now(), lease_owner: 'dead-worker', lease_expires_at: clock.now() + 30_000 })
      .where('id', '=', m.id)
      .execute();
    const before = (await listChecks(t.adminCtx, m.id, {})).length;
    await engine.runDueNow();
    expect((await listChecks(t.adminCtx, m.id, {})).length).toBe(before);
    clock.advance(31_000);
    await engine.runDueNow();
    expect((await listChecks(t.adminCtx, m.id, {})).length).toBe(before + 1);
    if (after === 1)
      expect(engine.stats.missedSlots).toBe(9); // 10.5 min since the last check: 9 slots skipped, counted not hidden
    else expect(engine.stats.missedSlots).toBeGreaterThanOrEqual(9);
    const freed = await k().selectFrom('monitors').select(['lease_owner']).where('id', '=', m.id).executeTakeFirstOrThrow();
    expect(freed.lease_owner).toBeNull();
    await k().updateTable('monitors').set({ is_paused: true }).where('id', '=', m.id).execute();
  });

  it('does not check the monitors of a deactivated company', async () => {
    const t = await seedTenant(services);
    const engine = createEngine(services);
    const m = await createMonitor(t.adminCtx, {
      name: 'dormant',
      type: 'http',
      url: http.url('/ok'),
      interval_seconds: 60,
      timeout_seconds: 2,
      is_public: false,
    } as never);
    await k().updateTable('companies').set({ is_active: false }).where('id', '=', t.company.id).execute();
    await engine.runDueNow();
    expect(await listChecks(t.adminCtx, m.id, {})).toHaveLength(0);
    await k().updateTable('companies').set({ is_active: true }).where('id', '=', t.company.id).execute();
    await engine.runDueNow();
    expect(await listChecks(t.adminCtx, m.id, {})).toHaveLength(1);
    await k().updateTable('monitors').set({ is_paused: true }).where('id', '=', m.id).execute();
  });

  it('caps concurrent checks per company at max_workers', async () => {
    const t = await seedTenant(services);
    await k().updateTable('companies').set({ max_workers: 2 }).where('id', '=', t.company.id).execute();
    const engine = createEngine(services);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(
        (
          await createMonitor(t.adminCtx, {
            name: `slow${i}`,
            type: 'http',
            url: http.url('/slow?ms=300'),
            interval_seconds: 60,
            timeout_seconds: 5,
            is_public: false,
          } as never)
        ).id,
      );
    const started = Date.now();
    await engine.runDueNow();
    // Six checks of 300 ms, two at a time: three rounds, never more than two open at once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(880);
    expect(http.maxConcurrentSlow()).toBe(2);
    for (const id of ids) expect((await getMonitor(t.adminCtx, id)).status).toBe('operational');
    await k().updateTable('monitors').set({ is_paused: true }).where('company_id', '=', t.company.id).execute();
  });

  it('warns once when a certificate is within 14 days of expiry; an invalid one opens an incident that keeps the warning in its thread', async () => {
    const t = await seedTenant(services);
    const engine = createEngine(services);
    const expiring = await createMonitor(t.adminCtx, {
      name: 'shop cert',
      type: 'ssl',
      host: 'localhost',
      port: tls.port.expiring,
      interval_seconds: 60,
      timeout_seconds: 2,
      confirmations: 1,
      is_public: false,
    } as never);
    const old = await createMonitor(t.adminCtx, {
      name: 'old cert',
      type: 'ssl',
      host: 'localhost',
      port: tls.port.expired,
      interval_seconds: 60,
      timeout_seconds: 2,
      confirmations: 1,
      is_public: false,
    } as never);
    await createMonitor(t.adminCtx, {
      name: 'shop site',
      type: 'http',
      url: `https://localhost:${tls.port.expiring}/`,
      interval_seconds: 60,
      timeout_seconds: 2,
      confirmations: 1,
      is_public: false,
    } as never);
    await engine.runDueNow();
    clock.advance(60_000);
    await engine.runDueNow();
    const n = await listNotifications(t.viewerCtx, { notification_type: 'ssl_warning' });
    expect(n.map((x) => x.title).sort()).toEqual([
      'Certificate of shop cert expires in 10 days',
      'Certificate of shop site expires in 10 days',
    ]);
    // One cause, one notification: the incident tells of the expired certificate, its warning is in the thread.
    const [incident] = await listIncidents(t.viewerCtx, { monitor_id: old.id });
    expect((await listNotifications(t.viewerCtx, { notification_type: 'monitor_incident' })).map((x) => x.message)).toContain(
      'old cert is down: Certificate has expired',
    );
    expect((await getIncident(t.viewerCtx, incident.id)).signals).toEqual([
      expect.objectContaining({ type: 'ssl_warning', title: 'Certificate of old cert is invalid', message: 'Certificate has expired' }),
    ]);
    const warn = n.find((x) => x.title.startsWith('Certificate of shop cert'))!;
    expect(warn).toMatchObject({ severity: 'medium', action_url: `/monitors?monitor=${expiring.id}` });
    expect(warn.metadata).toMatchObject({ threshold: 14, days_left: 10 });
    await k().updateTable('monitors').set({ is_paused: true }).where('company_id', '=', t.company.id).execute();
  });

  it('warns when DNS fails and when its answers change', async () => {
    const t = await seedTenant(services);
    const engine = createEngine(services);
    dns.records.set('www.shop.test', ['192.0.2.1']);
    const m = await createMonitor(t.adminCtx, {
      name: 'shop dns',
      type: 'dns',
      host: 'www.shop.test',
      record_type: 'A',
      resolver: `127.0.0.1:${dns.port}`,
      interval_seconds: 60,
      timeout_seconds: 2,
      confirmations: 1,
      is_public: false,
    } as never);
    await engine.runDueNow();
    dns.records.set('www.shop.test', ['192.0.2.66']);
    clock.advance(60_000);
    await engine.runDueNow();
    clock.advance(60_000);
    await engine.runDueNow(); // same answer again: no second warning
    const n = await listNotifications(t.adminCtx, { notification_type: 'dns_warning' });
    expect(n).toHaveLength(1);
    expect(n[0]).toMatchObject({
      title: 'DNS answers of shop dns changed',
      message: 'Was 192.0.2.1; now 192.0.2.66.',
      action_url: `/monitors?monitor=${m.id}`,
    });
    dns.records.set('www.shop.test', []);
    await k()
      .updateTable('monitors')
      .set({
        config: JSON.stringify({
          host: 'www.shop.test',
          record_type: 'A',
          resolver: `127.0.0.1:${dns.port}`,
          expected_values: ['192.0.2.66'],
        }),
      })
      .where('id', '=', m.id)
      .execute();
    clock.advance(60_000);
    await engine.runDueNow();
    const titles = (await listNotifications(t.adminCtx, { notification_type: 'dns_warning' })).map((x) => x.title);
    expect(titles).toContain('DNS check of shop dns is failing');
    await k().updateTable('monitors').set({ is_paused: true }).where('company_id', '=', t.company.id).execute();
  });

  it('prunes raw results past the plan retention and keeps the rollups', async () => {
    const starter = await seedCompany(services, { plan: 'starter' });
    const pro = await seedCompany(services, { plan: 'professional' });
    const t = await seedTenant(services);
    const engine = createEngine(services);
    const m = await createMonitor(t.adminCtx, {
      name: 'kept',
      type: 'http',
      url: http.url('/ok'),
      interval_seconds: 60,
      timeout_seconds: 2,
      is_public: false,
    } as never);
    await engine.runDueNow();
    const day = 86_400_000;
    const now = clock.now();
    const mk = (companyId: string, monitorId: string, ago: number) => ({
      monitor_id: monitorId,
      checked_at: now - ago,
      company_id: companyId,
      status: 'operational' as const,
      response_time_ms: 1,
      http_code: 200,
      error: null,
      timings: null,
      cert_expires_at: null,
    });
    for (const c of [starter.id, pro.id]) {
      const mid = c.split('').reverse().join('');
      await k()
        .insertInto('monitors')
        .values({
          id: mid,
          company_id: c,
          name: 'old',
          type: 'http',
          config: '{}',
          interval_seconds: 60,
          timeout_seconds: 5,
          next_due_at: now + 10 * day,
          status_since: null,
          pending_status: null,
          last_checked_at: null,
          last_response_time_ms: null,
          last_http_code: null,
          last_error: null,
          cert_expires_at: null,
          push_token_hash: null,
          last_push_at: null,
          lease_owner: null,
          lease_expires_at: null,
          last_answers: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await k()
        .insertInto('check_results')
        .values([mk(c, mid, 6 * day), mk(c, mid, 8 * day), mk(c, mid, 31 * day)])
        .execute();
    }
    const rollupsBefore = (await k().selectFrom('monitor_rollups_daily').selectAll().execute()).length;
    const deleted = await pruneResults(services.db, now);
    expect(deleted).toBe(3); // starter: 8 and 31 days; professional: 31 days
    const left = async (c: string) =>
      (await k().selectFrom('check_results').select('checked_at').where('company_id', '=', c).execute()).length;
    expect(await left(starter.id)).toBe(1);
    expect(await left(pro.id)).toBe(2);
    expect((await listChecks(t.adminCtx, m.id, {})).length).toBe(1); // enterprise result of today stays
    expect((await k().selectFrom('monitor_rollups_daily').selectAll().execute()).length).toBe(rollupsBefore);
    expect((await getUptime(t.adminCtx, m.id))['24h'].checks).toBe(1);
  });
});
