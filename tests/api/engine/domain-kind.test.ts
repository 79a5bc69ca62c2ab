// Domain monitors against a loopback RDAP server: the check's verdicts and error texts for a
// healthy, expiring, expired, held, unknown and hostile registry (garbage, a huge answer, an answer
// that never ends, a slow one); the RDAP server passes the SSRF guard; and on both databases the
// engine warns once per threshold, warns when the status changes, and opens an incident on expiry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainChecker, type DomainConfig } from '../../../src/server/engine/checkers/domain.ts';
import { DEFAULT_LIMITS, type CheckEnv } from '../../../src/server/engine/checkers/types.ts';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import { createMonitor, getMonitor, listChecks, listMonitors } from '../../../src/server/domain/monitors/service.ts';
import { listNotifications } from '../../../src/server/domain/notifications/service.ts';
import { listIncidents } from '../../../src/server/domain/incidents/service.ts';
import { dnsResolver } from '../../../src/server/net/dns-lookup.ts';
import type { Services } from '../../../src/server/domain/context.ts';
import { registration, startRdapKindServer, type RdapKindServer } from '../../support/kind-servers/rdap.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { engineServices, manualClock, seedTenant } from './support.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 24, 9, 0, 0);

let rdap: RdapKindServer;
beforeAll(async () => {
  rdap = await startRdapKindServer();
});
afterAll(async () => rdap?.close());

describe('domain checks against a loopback RDAP server', () => {
  const env = (o: Partial<CheckEnv> = {}): CheckEnv => ({
    now: () => NOW,
    allowPrivateTargets: true,
    resolve: dnsResolver(),
    rdap: () => ({ url: rdap.url, trusted: false }),
    limits: DEFAULT_LIMITS,
    ...o,
  });
  const check = (domain: string, o: Partial<CheckEnv> = {}, cfg: DomainConfig = {}, timeoutMs = 2000) => {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    return domainChecker(
      { id: 'm', type: 'domain', config: { domain, ...cfg }, timeoutMs, lastPushAt: null, intervalMs: 3_600_000, createdAt: NOW },
      env(o),
      abort.signal,
    ).finally(() => clearTimeout(timer));
  };

  it('is up with the registrar, expiry and status read, and shows the phases of the RDAP request', async () => {
    rdap.domains.set('shop.test', registration({ name: 'shop.test', expires: NOW + 200 * DAY, registrar: 'Gandi SAS' }));
    const o = await check('shop.test');
    expect(o).toMatchObject({ status: 'operational', error: null });
    expect(o.detail?.registration).toEqual({ expiresAt: NOW + 200 * DAY, registrar: 'Gandi SAS', status: ['client transfer prohibited'] });
    expect(Object.keys(o.timings ?? {}).sort()).toEqual(['connect', 'dns', 'total', 'ttfb']);
    expect(rdap.asked).toContain('shop.test');
  });

  it('is degraded inside the smallest warning day and while the registry holds the domain, down once expired', async () => {
    rdap.domains.set('soon.test', registration({ name: 'soon.test', expires: NOW + 12 * 3_600_000 }));
    rdap.domains.set('held.test', registration({ name: 'held.test', expires: NOW + 90 * DAY, status: ['client hold'] }));
    rdap.domains.set('gone.test', registration({ name: 'gone.test', expires: Date.UTC(2026, 10, 20) }));
    expect(await check('soon.test')).toMatchObject({
      status: 'degraded',
      error: 'The registration of soon.test expires on 2026-11-24, in less than 1 day',
    });
    expect(await check('soon.test', {}, { domain_warning_days: [30, 3] })).toMatchObject({ status: 'degraded' });
    expect(await check('held.test')).toMatchObject({
      status: 'degraded',
      error: 'Registry status client hold: the registrar has put the domain on hold: it is not published in the DNS',
    });
    expect(await check('gone.test')).toMatchObject({ status: 'down', error: 'The registration of gone.test expired on 2026-11-20' });
  });

  it('reads an unknown domain, garbage, a huge answer and an endless answer as clear failures within the deadline', async () => {
    rdap.domains.set('garbage.test', { hostile: 'garbage' });
    rdap.domains.set('huge.test', { hostile: 'huge' });
    rdap.domains.set('endless.test', { hostile: 'endless' });
    rdap.domains.set('entity.test', { objectClassName: 'entity', handle: 'X' });
    const [unknown, garbage, huge, endless, entity] = await Promise.all([
      check('unknown.test'),
      check('garbage.test'),
      check('huge.test'),
      check('endless.test', {}, {}, 500),
      check('entity.test'),
    ]);
    expect(unknown).toMatchObject({ status: 'down', error: 'The registry has no registration data for this domain (RDAP 404)' });
    expect(garbage).toMatchObject({ status: 'down', error: 'The RDAP server answered something that is not JSON' });
    expect(huge).toMatchObject({ status: 'down', error: 'RDAP: answer larger than 512 KiB' });
    expect(endless).toMatchObject({ status: 'down', error: 'Timed out after 0.5 s', responseTimeMs: null });
    expect(entity).toMatchObject({ status: 'down', error: 'RDAP: the answer is not an RDAP domain object' });
  });

  it('waits for a slow registry within the deadline', async () => {
    rdap.slowMs = 200;
    rdap.domains.set('slow.test', { hostile: 'slow', body: registration({ name: 'slow.test', expires: NOW + 100 * DAY }) });
    expect(await check('slow.test')).toMatchObject({ status: 'operational', error: null });
    expect(await check('slow.test', {}, {}, 100)).toMatchObject({ status: 'down', error: 'Timed out after 0.1 s' });
  });

  it('refuses an RDAP server at a loopback address when private targets are not allowed, and names a TLD without one', async () => {
    rdap.domains.set('shop.test', registration({ name: 'shop.test', expires: NOW + 200 * DAY }));
    const before = rdap.asked.length;
    const refused = await check('shop.test', { allowPrivateTargets: false });
    expect(refused.status).toBe('down');
    expect(refused.error).toMatch(/^RDAP: Target refused/);
    expect(rdap.asked.length).toBe(before);
    expect(await check('shop.nowhere', { rdap: () => null })).toMatchObject({
      status: 'down',
      error: 'No RDAP server is known for .nowhere',
    });
  });
});

describe.each(DB_KINDS)('domain monitors on %s', (kind) => {
  let services: Services;
  const clock = manualClock(NOW);
  beforeAll(async () => {
    services = await engineServices(kind, { RDAP_BASE_URLS: `test=${rdap.url}` }, clock.now);
  });
  afterAll(async () => services?.db.close());

  it('asks for an hourly interval at least, and a name rather than an address', async () => {
    const t = await seedTenant(services);
    await expect(
      createMonitor(t.adminCtx, { name: 'd', type: 'domain', domain: 'shop.test', interval_seconds: 60 } as never),
    ).rejects.toMatchObject({
      fields: {
        interval_seconds: 'Interval must be at least 3600 seconds for domain monitors (their servers limit how often they are asked)',
      },
    });
    await expect(createMonitor(t.adminCtx, { name: 'd', type: 'domain', domain: '127.0.0.1' } as never)).rejects.toMatchObject({
      fields: { domain: 'Domain must be a registered name like example.com (not an address or a single label)' },
    });
    const m = await createMonitor(t.adminCtx, { name: 'Shop domain', type: 'domain', domain: 'https://Shop.TEST/' } as never);
    expect(m).toMatchObject({ domain: 'shop.test', domain_warning_days: [30, 14, 7, 1], interval_seconds: 3600 });
    // found by its domain in the console's search
    expect((await listMonitors(t.adminCtx, { q: 'SHOP.t' })).items.map((x) => x.id)).toEqual([m.id]);
  });

  it('warns once at each threshold, on a status change, and opens an incident when the registration expires', async () => {
    clock.set(NOW);
    const t = await seedTenant(services);
    const engine = createEngine(services);
    const name = `${kind}-shop.test`;
    const expires = NOW + 40 * DAY;
    rdap.domains.set(name, registration({ name, expires }));
    const m = await createMonitor(t.adminCtx, {
      name: 'Shop domain',
      type: 'domain',
      domain: name,
      confirmations: 1,
      is_public: false,
    } as never);
    // A jump of days makes the monitor overdue: the engine moves it to its next slot (within the
    // hour) instead of checking at once, so each jump is followed by one interval.
    const jumpTo = async (at: number) => {
      clock.set(at - 3_600_000);
      await engine.runDueNow();
      clock.set(at);
      await engine.runDueNow();
    };
    const warnings = async () => (await listNotifications(t.adminCtx, { notification_type: 'dns_warning' })).map((n) => n.title).sort();
    await engine.runDueNow();
    expect((await getMonitor(t.adminCtx, m.id)).status).toBe('operational');
    expect(await warnings()).toEqual([]);
    // 29, then 28 days left: the 30-day warning once
    for (const daysLeft of [29, 28, 13, 12, 6, 0.5]) {
      await jumpTo(expires - daysLeft * DAY - 3_600_000);
    }
    expect(await warnings()).toEqual([
      `The registration of ${name} expires in 13 days`,
      `The registration of ${name} expires in 29 days`,
      `The registration of ${name} expires in 6 days`,
      `The registration of ${name} expires within a day`,
    ]);
    // The registrar puts it on hold: a status-change warning, and the monitor is degraded
    rdap.domains.set(name, registration({ name, expires, status: ['client hold'] }));
    await jumpTo(clock.now() + 3_600_000);
    const held = await getMonitor(t.adminCtx, m.id);
    expect(held.status).toBe('degraded');
    expect(held.registration).toEqual({
      expires_at: new Date(expires).toISOString(),
      registrar: 'Example Registrar, Inc.',
      status: ['client hold'],
    });
    const change = (await listNotifications(t.adminCtx, { notification_type: 'dns_warning' })).find((n) => n.title.includes('status'))!;
    expect(change).toMatchObject({
      title: `The registry status of ${name} changed`,
      message: 'now client hold; no longer client transfer prohibited.',
      severity: 'high',
    });
    // Expired: down, one incident
    await jumpTo(expires + 3_600_000);
    expect(await getMonitor(t.adminCtx, m.id)).toMatchObject({
      status: 'down',
      last_error: `The registration of ${name} expired on ${new Date(expires).toISOString().slice(0, 10)}`,
    });
    expect(await listIncidents(t.adminCtx, { monitor_id: m.id })).toHaveLength(1);
    expect((await listChecks(t.adminCtx, m.id, {})).map((c) => c.status).slice(0, 4)).toEqual([
      'down',
      'degraded',
      'degraded',
      'operational',
    ]);
    await engine.stop();
  });
});
