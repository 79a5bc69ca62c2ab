// The per-destination check budget (issue 25, item 17) on both databases: with
// MAX_CHECKS_PER_HOST_PER_MINUTE at 4, two companies' monitors of one loopback host may ask 4
// checks a minute together; a create, an interval change or a resume that would pass it is
// refused with a problem naming the host and the budget, and so is a monitors-as-code apply (the
// CLI a real child process). The super admin sees the host near, then over the budget once it is
// lowered, in the API and the Prometheus scrape; the engine then spaces the host's checks out so
// it gets no more than the budget (a fake clock over twelve minutes, the checks counted by the
// loopback target), and says so in its log.
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { ApiClient, rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { cli } from '../../support/statuswatch-cli.ts';

const METRICS_TOKEN = 'b3f1c0ffee5a11d4e9a7c2b6d8f0e1a3b5c7d9f1a2b4c6d8';

const refusal = (host: string, cap: number, adds: string, every: number) =>
  `Checks of ${host} are limited to ${cap} a minute across all monitors on this platform, ` +
  `and this monitor's ${adds} a minute (every ${every} s) would go over that budget. ` +
  'Choose a longer interval or another target, or ask your platform administrator.';

describe.each(DB_KINDS)('per-destination check budget on %s', (kind) => {
  let t: TestApp;
  let target: http.Server;
  let tcpTarget: net.Server;
  let port: number;
  let tcpPort: number;
  /** checks the loopback targets received (HTTP requests and TCP connections) */
  let hits = 0;
  let clock = Date.UTC(2026, 10, 29, 10, 0, 0);
  let acme: ApiClient;
  let globex: ApiClient;
  let root: ApiClient;
  let acmeToken: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    target = http.createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    tcpTarget = net.createServer((s) => {
      hits++;
      s.end();
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => tcpTarget.listen(0, '127.0.0.1', r));
    port = (target.address() as AddressInfo).port;
    tcpPort = (tcpTarget.address() as AddressInfo).port;
    t = await startTestApp({
      db: kind,
      now: () => clock,
      env: { ALLOW_PRIVATE_TARGETS: 'true', MAX_CHECKS_PER_HOST_PER_MINUTE: '4', METRICS_TOKEN },
    });
    const a = await seedCompany(t.services, { subdomain: 'acme', plan: 'enterprise' });
    const g = await seedCompany(t.services, { subdomain: 'globex', plan: 'enterprise' });
    acme = new ApiClient(t.baseUrl, 'acme.localhost');
    globex = new ApiClient(t.baseUrl, 'globex.localhost');
    root = t.client();
    await signIn(acme, await seedUser(t.services, { userType: 2, companyId: a.id }));
    await signIn(globex, await seedUser(t.services, { userType: 2, companyId: g.id }));
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    const token = await acme.post('/api/v1/api-tokens', { name: 'ci', scope: 'write' });
    expect(token.status, token.text).toBe(201);
    acmeToken = token.body.token;
  });
  afterAll(async () => {
    await t?.close();
    target?.closeAllConnections();
    await new Promise((r) => target?.close(r));
    await new Promise((r) => tcpTarget?.close(r));
  });

  const http60 = (name: string, path: string, interval = 60) => ({
    name,
    type: 'http',
    url: `http://127.0.0.1:${port}${path}`,
    interval_seconds: interval,
  });

  it('lets two companies share a host up to the budget and refuses what would pass it, naming the host and the budget', async () => {
    const a = await acme.post('/api/v1/monitors', http60('Acme shop', '/shop', 30));
    expect(a.status, a.text).toBe(201);
    ids.acmeShop = a.body.id;
    const b = await globex.post('/api/v1/monitors', http60('Globex web', '/web'));
    expect(b.status, b.text).toBe(201);
    ids.globexWeb = b.body.id;
    const c = await globex.post('/api/v1/monitors', {
      name: 'Globex port',
      type: 'tcp',
      host: '127.0.0.1',
      port: tcpPort,
      interval_seconds: 60,
    });
    expect(c.status, c.text).toBe(201);
    ids.globexPort = c.body.id;

    // 2 + 1 + 1 = 4 a minute: the host is full, for either company, however its address is spelt.
    const over = await acme.post('/api/v1/monitors', http60('Acme api', '/api'));
    expect(over.status).toBe(422);
    expect(over.body.detail).toBe(refusal('127.0.0.1', 4, '1', 60));
    expect(over.body.errors).toMatchObject({ url: refusal('127.0.0.1', 4, '1', 60) });
    const spelt = await globex.post('/api/v1/monitors', { ...http60('Globex api', '/api', 120), url: `http://0x7f000001:${port}/api` });
    expect(spelt.status).toBe(422);
    expect(spelt.body.detail).toBe(refusal('127.0.0.1', 4, '0.5', 120));
    // Another host is not this one's business; a push monitor has no destination.
    expect((await acme.post('/api/v1/monitors', { ...http60('Elsewhere', '/'), url: 'http://localhost:9/' })).status).toBe(201);
    expect((await acme.post('/api/v1/monitors', { name: 'Beacon', type: 'push', interval_seconds: 60 })).status).toBe(201);

    // More checks from a monitor already counted: refused; a change that adds none: fine.
    const faster = await globex.put(`/api/v1/monitors/${ids.globexWeb}`, { interval_seconds: 30 });
    expect(faster.status).toBe(422);
    expect(faster.body.detail).toBe(refusal('127.0.0.1', 4, '2', 30));
    expect((await globex.put(`/api/v1/monitors/${ids.globexWeb}`, { name: 'Globex website' })).status).toBe(200);

    // A paused monitor frees its share; resuming it takes it back only while there is room.
    expect((await acme.post(`/api/v1/monitors/${ids.acmeShop}/pause`)).status).toBe(200);
    const swap = await acme.post('/api/v1/monitors', http60('Acme api', '/api', 30));
    expect(swap.status, swap.text).toBe(201);
    ids.acmeApi = swap.body.id;
    const resumed = await acme.post(`/api/v1/monitors/${ids.acmeShop}/resume`);
    expect(resumed.status).toBe(422);
    expect(resumed.body.detail).toBe(refusal('127.0.0.1', 4, '2', 30));
    expect((await acme.get(`/api/v1/monitors/${ids.acmeShop}`)).body.is_paused).toBe(true);
  });

  it('refuses a monitors-as-code apply the same way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sw-budget-'));
    const file = join(dir, 'acme.yaml');
    writeFileSync(
      file,
      `version: 1\nmonitors:\n  - name: Acme status\n    type: http\n    url: http://127.0.0.1:${port}/status\n    interval_seconds: 60\n`,
    );
    const r = await cli(['apply', file], { STATUSWATCH_URL: `http://acme.localhost:${t.port}`, STATUSWATCH_TOKEN: acmeToken });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`POST /api/v1/monitors answered 422: ${refusal('127.0.0.1', 4, '1', 60)}`);
    const names = (await acme.get('/api/v1/monitors')).body.map((m: { name: string }) => m.name);
    expect(names).not.toContain('Acme status');
  });

  it('shows the super admin the host near the budget, then over it once the budget is lowered', async () => {
    const near = await root.get('/api/v1/admin/destination-budget');
    expect(near.status).toBe(200);
    expect(near.body).toEqual({
      cap_per_minute: 4,
      near_share: 0.8,
      hosts: [{ host: '127.0.0.1', checks_per_minute: 4, monitors: 3, companies: 2, state: 'near', stretch: 1 }],
    });
    expect((await acme.get('/api/v1/admin/destination-budget')).status).toBe(403);

    t.services.config.maxChecksPerHostPerMinute = 2;
    const over = await root.get('/api/v1/admin/destination-budget');
    expect(over.body.hosts).toEqual([{ host: '127.0.0.1', checks_per_minute: 4, monitors: 3, companies: 2, state: 'over', stretch: 2 }]);
    const scrape = await rawRequest(`${t.baseUrl}/metrics`, 'GET', {
      host: t.config.productDomain,
      accept: 'text/plain;version=0.0.4',
      authorization: `Bearer ${METRICS_TOKEN}`,
    });
    const text = scrape.text;
    expect(text).toContain('statuswatch_destination_budget_hosts{state="over"} 1');
    expect(text).toContain('statuswatch_destination_budget_hosts{state="near"} 0');
  });

  it('keeps the engine within the lowered budget: the host gets 2 checks a minute, not 4', async () => {
    const log: string[] = [];
    const engine = createEngine(t.services, { log: (m) => log.push(m) });
    const minute = 60_000;
    const start = clock;
    let counted = 0;
    for (let at = start; at < start + 12 * minute; at += 5_000) {
      clock = at;
      // The first two minutes settle the new monitors' first checks and phases; then count.
      if (at === start + 2 * minute) counted = hits;
      await engine.runDueNow();
    }
    const checks = hits - counted;
    await engine.stop();
    // Ten minutes at 2 a minute, give or take one slot at each end; 4 a minute unspaced.
    expect(checks).toBeGreaterThanOrEqual(18);
    expect(checks).toBeLessThanOrEqual(22);
    expect(log).toContain(
      'engine: checks of 127.0.0.1 are spaced out ×2: 3 monitors of 2 companies ask 4 a minute, MAX_CHECKS_PER_HOST_PER_MINUTE is 2',
    );
  });
});
