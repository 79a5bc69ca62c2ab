// One tenant's black-holed DNS must not take other tenants down: lookups run on c-ares (no
// libuv thread pool to fill) under each check's deadline, at most a few in flight per company.
// DNS_RESOLVERS points the engine at a loopback server that answers some zones and never
// answers the black-holed one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import { DNS_LOOKUPS_PER_COMPANY } from '../../../src/server/net/dns-lookup.ts';
import { createMonitor, getMonitor, listChecks } from '../../../src/server/domain/monitors/service.ts';
import { startDnsServer, type DnsTarget } from '../../fixtures/targets/dns-targets.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { engineServices, seedTenant } from '../engine/support.ts';
import { waitFor } from '../../support/wait-for.ts';

describe('a black-holed resolver for one company', () => {
  let services: Services;
  let dns: DnsTarget;
  let http: HttpTargets;

  beforeAll(async () => {
    [dns, http] = await Promise.all([startDnsServer({ answer: true }), startHttpTargets()]);
    dns.silent.add('blackhole.example.test');
    dns.records.set('healthy.example.test', ['127.0.0.1']);
    services = await engineServices('sqlite', { DNS_RESOLVERS: `127.0.0.1:${dns.port}` });
    // All twenty black-holed monitors are due at once (limits on that: monitors-immediate-checks.test.ts).
    services.monitoring = { immediateChecks: { windowMs: 0, perCompany: Infinity } };
  });
  afterAll(async () => {
    await Promise.all([dns?.close(), http?.close()]);
    await services?.db.close();
  });

  it("leaves another company's monitors healthy, fast and creatable while its own lookups hang", async () => {
    const slow = await seedTenant(services);
    const fine = await seedTenant(services);
    const stuck = [];
    for (let i = 0; i < 20; i++) {
      stuck.push(
        await createMonitor(slow.adminCtx, {
          name: `tcp ${i}`,
          type: 'tcp',
          host: `h${i}.blackhole.example.test`,
          port: 443,
          interval_seconds: 60,
          timeout_seconds: 3,
          confirmations: 1,
          is_public: true,
        } as never),
      );
    }
    const healthy = [
      await createMonitor(fine.adminCtx, {
        name: 'web',
        type: 'http',
        url: `http://healthy.example.test:${http.port}/ok`,
        interval_seconds: 60,
        timeout_seconds: 3,
        confirmations: 1,
        is_public: true,
      } as never),
      await createMonitor(fine.adminCtx, {
        name: 'port',
        type: 'tcp',
        host: 'healthy.example.test',
        port: http.port,
        interval_seconds: 60,
        timeout_seconds: 3,
        confirmations: 1,
        is_public: true,
      } as never),
    ];
    const engine = createEngine(services);
    const run = engine.runDueNow();
    // While the black-holed lookups hang, the other company creates a monitor at once.
    await waitFor(() => dns.asked.some((n) => n.endsWith('blackhole.example.test')), { what: 'the black-holed lookups asked' });
    const t0 = Date.now();
    const later = await createMonitor(fine.adminCtx, {
      name: 'later',
      type: 'http',
      url: `http://healthy.example.test:${http.port}/ok`,
      interval_seconds: 60,
      timeout_seconds: 3,
      confirmations: 1,
      is_public: true,
    } as never);
    // not held by the hung lookups' 3 s deadline (the room below it is for a loaded machine)
    expect(Date.now() - t0).toBeLessThan(2500);
    // Before the 3 s deadline, only a few of the company's names were being asked about at once.
    await new Promise((r) => setTimeout(r, 2000));
    const askedBeforeDeadline = new Set(dns.asked.filter((n) => n.endsWith('blackhole.example.test')));
    await run;

    for (const m of healthy) {
      const v = await getMonitor(fine.adminCtx, m.id);
      expect(v.status, m.name).toBe('operational');
      expect(v.last_response_time!, m.name).toBeLessThan(1000);
    }
    for (const m of stuck) {
      const [check] = await listChecks(slow.adminCtx, m.id, {});
      expect(check.error, m.name).toBe('Timed out after 3 s');
    }
    expect(askedBeforeDeadline.size).toBe(DNS_LOOKUPS_PER_COMPANY);

    await engine.runDueNow();
    expect((await getMonitor(fine.adminCtx, later.id)).status).toBe('operational');
  });
});
