// The Prometheus figures by location (issue 27 item 4), as Prometheus scrapes them, on both
// databases: the operator's checks carry a `location` label (`local` for this process's engine),
// each location's probes are counted online and offline and its health (offline, flagged) is a
// 0/1 gauge, a private location named SUBDOMAIN/slug; a company's scrape gives each location's
// own state, response time and last check of its monitors, labelled by the location's slug. Both
// scrapes pass Prometheus' own `promtool check metrics`.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { probeHealth } from '../../../src/server/jobs/probe-health.ts';
import { inboxDrained } from '../../../src/server/domain/probes/inbox.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';

const PROMETHEUS_ACCEPT = 'text/plain;version=0.0.4;q=0.5,*/*;q=0.1';

function promtool(text: string): { ok: boolean; output: string } {
  const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (r.error) throw new Error(`promtool is not installed (Debian package prometheus): ${r.error.message}`);
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

/** The value of one sample, matched by its name and every label given. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe.each(DB_KINDS)('Prometheus metrics by location on %s', (kind) => {
  const metricsToken = randomBytes(32).toString('hex');
  let t: TestApp;
  let engine: Engine;
  let http: HttpTargets;
  let acmeHost: string;
  let acmeToken: string;
  let acmeId: string;
  let monitorId: string;
  let euWest: number;
  let euWestToken: string;

  const scrape = (host: string, bearer: string) =>
    rawRequest(`${t.baseUrl}/metrics`, 'GET', { host, accept: PROMETHEUS_ACCEPT, authorization: `Bearer ${bearer}` });
  const operator = async () => {
    const r = await scrape(t.config.productDomain, metricsToken);
    expect(r.status, r.text).toBe(200);
    expect(promtool(r.text)).toEqual({ ok: true, output: '' });
    return r.text;
  };

  beforeAll(async () => {
    http = await startHttpTargets();
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true', METRICS_TOKEN: metricsToken } });
    engine = createEngine(t.services);
    t.services.monitoring = { engine, immediateChecks: { windowMs: 0, perCompany: Infinity } };
    const acme = await seedCompany(t.services, { subdomain: 'acme' });
    acmeId = acme.id;
    acmeHost = `acme.${t.config.productDomain}`;
    const admin = new ApiClient(t.baseUrl, acmeHost);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    const root = t.client();
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    const m = await admin.post('/api/v1/monitors', {
      name: 'Shop',
      type: 'http',
      url: http.url('/ok'),
      interval_seconds: 60,
      timeout_seconds: 2,
      is_public: false,
    });
    expect(m.status, m.text).toBe(201);
    monitorId = m.body.id;
    await engine.runDueNow();
    const pub = await root.post('/api/v1/probe-locations', { name: 'Frankfurt', slug: 'eu-west', private: false });
    expect(pub.status, pub.text).toBe(201);
    const tok = await root.post(`/api/v1/probe-locations/${pub.body.id}/tokens`, { name: 'host-1' });
    euWestToken = tok.body.token;
    const hello = await rawRequest(
      `${t.baseUrl}/api/v1/probe/hello`,
      'POST',
      { host: `localhost:${t.port}`, 'content-type': 'application/json', authorization: `Bearer ${tok.body.token}` },
      JSON.stringify({ instance: 'fra-1', version: '1.0.0' }),
    );
    expect(hello.status, hello.text).toBe(200);
    expect((await admin.post('/api/v1/probe-locations', { name: 'Lab', slug: 'lab', private: true })).status).toBe(201);
    euWest = Number(
      (await t.services.db.k.selectFrom('probe_locations').select('num').where('slug', '=', 'eu-west').executeTakeFirstOrThrow()).num,
    );
    const token = await admin.post('/api/v1/api-tokens', { name: 'Prometheus', scope: 'read' });
    acmeToken = token.body.token;
  });
  afterAll(async () => {
    await engine?.stop();
    await t?.close();
    await http?.close();
  });

  it("labels the operator's checks with their location and counts each location's probes and health", async () => {
    let text = await operator();
    expect(sample(text, 'statuswatch_checks_total', { kind: 'http', status: 'operational', location: 'local' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'statuswatch_probes', { location: 'eu-west', state: 'online' })).toBe(1);
    expect(sample(text, 'statuswatch_probes', { location: 'eu-west', state: 'offline' })).toBe(0);
    expect(sample(text, 'statuswatch_probes', { location: 'acme/lab', state: 'online' })).toBe(0);
    expect(sample(text, 'statuswatch_probe_location_unhealthy', { location: 'eu-west', reason: 'offline' })).toBe(0);
    // Frankfurt's probe silent past PROBE_OFFLINE_SECONDS, as the job sees it 3 minutes from now
    await probeHealth.run(t.services, Date.now() + 180_000);
    text = await operator();
    expect(sample(text, 'statuswatch_probe_location_unhealthy', { location: 'eu-west', reason: 'offline' })).toBe(1);
    expect(sample(text, 'statuswatch_probe_location_unhealthy', { location: 'eu-west', reason: 'flagged' })).toBe(0);
    expect(sample(text, 'statuswatch_probe_location_unhealthy', { location: 'acme/lab', reason: 'offline' })).toBe(0);
  });

  it('counts the results taken from a probe under its location', async () => {
    // the monitor checked from Frankfurt too, as the monitor's locations say
    await t.services.db.k.updateTable('monitors').set({ locations: '["local","eu-west"]' }).where('id', '=', monitorId).execute();
    const before = sample(await operator(), 'statuswatch_checks_total', { kind: 'http', status: 'down', location: 'eu-west' }) ?? 0;
    const result = (id: string) => ({
      id,
      monitor_id: monitorId,
      checked_at: Date.now() - 1000,
      status: 'down',
      response_time_ms: null,
      http_code: null,
      error: 'Connection refused',
      timings: null,
      cert_expires_at: null,
      cert_issuer: null,
      cert_subject: null,
    });
    const batch = { stats: { instance: 'fra-1', checks_per_second: 1, lag_ms_p99: 3 }, results: [result('r-1'), result('r-2')] };
    for (let i = 0; i < 2; i++) {
      const r = await rawRequest(
        `${t.baseUrl}/api/v1/probe/results`,
        'POST',
        { host: `localhost:${t.port}`, 'content-type': 'application/json', authorization: `Bearer ${euWestToken}` },
        JSON.stringify(batch),
      );
      expect(r.status, r.text).toBe(200);
    }
    await inboxDrained(t.services); // counted once stored, just after the answer
    // the batch sent twice is counted once, as it is stored once
    expect(sample(await operator(), 'statuswatch_checks_total', { kind: 'http', status: 'down', location: 'eu-west' })).toBe(before + 2);
  });

  it("gives a company each location's own state, response time and last check of its monitors", async () => {
    const now = Date.now();
    for (const [location, status, ms] of [
      [0, 'operational', 12.5],
      [euWest, 'down', null],
    ] as const)
      await t.services.db.k
        .insertInto('monitor_location_states')
        .values({
          monitor_id: monitorId,
          location,
          company_id: acmeId,
          status,
          last_checked_at: now - 1000,
          last_status: status,
          last_response_time_ms: ms,
          updated_at: now,
        })
        // the probe's results above gave Frankfurt a state already: this one replaces it
        .onConflict((oc) =>
          oc
            .columns(['monitor_id', 'location'])
            .doUpdateSet({ status, last_checked_at: now - 1000, last_status: status, last_response_time_ms: ms }),
        )
        .execute();
    const r = await scrape(acmeHost, acmeToken);
    expect(r.status, r.text).toBe(200);
    expect(promtool(r.text)).toEqual({ ok: true, output: '' });
    const of = (location: string, state: string) =>
      sample(r.text, 'statuswatch_monitor_location_status', { monitor_id: monitorId, location, state });
    expect([of('local', 'operational'), of('local', 'down'), of('eu-west', 'operational'), of('eu-west', 'down')]).toEqual([1, 0, 0, 1]);
    expect(sample(r.text, 'statuswatch_monitor_location_response_time_seconds', { location: 'local' })).toBe(0.0125);
    expect(sample(r.text, 'statuswatch_monitor_location_response_time_seconds', { location: 'eu-west' })).toBeUndefined();
    expect(sample(r.text, 'statuswatch_monitor_location_last_check_timestamp_seconds', { location: 'eu-west' })).toBe((now - 1000) / 1000);
    // the monitor's own series stay as they were, without a location: one state at a time (the quorum's verdict)
    const own = r.text.split('\n').filter((l) => l.startsWith('statuswatch_monitor_status{') && l.includes(monitorId));
    expect(own).toHaveLength(5);
    expect(own.some((l) => l.includes('location='))).toBe(false);
    expect(own.reduce((a, l) => a + Number(l.slice(l.lastIndexOf(' ') + 1)), 0)).toBe(1);
  });
});
