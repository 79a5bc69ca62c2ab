// GET /metrics as Prometheus scrapes it, on both databases: the operator's platform metrics on
// the main host (METRICS_TOKEN, else no such endpoint) and each company's monitors on its own
// host (one of its API tokens), both checked by Prometheus' own `promtool check metrics`.
// Browsers keep the console's Metrics page at the same path.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { startTlsTargets, type TlsTargets } from '../../fixtures/targets/tls-targets.ts';

const PROMETHEUS_ACCEPT =
  'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** Prometheus' own checker; CI installs it (scripts/ensure-test-deps.sh), so its absence fails. */
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

describe.each(DB_KINDS)('Prometheus metrics on %s', (kind) => {
  const metricsToken = randomBytes(32).toString('hex');
  let t: TestApp;
  let engine: Engine;
  let http: HttpTargets;
  let tls: TlsTargets;
  let acmeHost: string;
  let globexHost: string;
  let acmeToken: string;
  let acmeTokenId: string;
  let globexToken: string;
  let admin: ApiClient;
  const ids: Record<string, string> = {};
  const HOSTILE_NAME = 'Shop "API" \\ west';

  const scrape = (host: string, headers: Record<string, string>) =>
    rawRequest(`${t.baseUrl}/metrics`, 'GET', { host, accept: PROMETHEUS_ACCEPT, ...headers });

  beforeAll(async () => {
    [http, tls] = await Promise.all([startHttpTargets(), startTlsTargets()]);
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true', METRICS_TOKEN: metricsToken } });
    engine = createEngine(t.services, { extraCa: [tls.caPem] });
    t.services.monitoring = { engine, immediateChecks: { windowMs: 0, perCompany: Infinity } };
    const acme = await seedCompany(t.services, { subdomain: 'acme' });
    const globex = await seedCompany(t.services, { subdomain: 'globex' });
    acmeHost = `acme.${t.config.productDomain}`;
    globexHost = `globex.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, acmeHost);
    const other = new ApiClient(t.baseUrl, globexHost);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    await signIn(other, await seedUser(t.services, { userType: 2, companyId: globex.id }));
    const make = async (c: ApiClient, body: Record<string, unknown>) => {
      const r = await c.post('/api/v1/monitors', { interval_seconds: 60, timeout_seconds: 2, is_public: false, ...body });
      expect(r.status, r.text).toBe(201);
      return r.body.id as string;
    };
    ids.shop = await make(admin, { name: HOSTILE_NAME, type: 'http', url: http.url('/ok') });
    ids.cert = await make(admin, { name: 'Certificate', type: 'ssl', host: '127.0.0.1', port: tls.port.valid });
    ids.down = await make(admin, { name: 'Broken', type: 'http', url: http.url('/status/500'), confirmations: 1 });
    ids.globex = await make(other, { name: 'Globex secret', type: 'http', url: http.url('/ok') });
    await engine.runDueNow();
    const token = async (c: ApiClient) => {
      const r = await c.post('/api/v1/api-tokens', { name: 'Prometheus', scope: 'read' });
      expect(r.status, r.text).toBe(201);
      return r.body as { id: string; token: string };
    };
    const a = await token(admin);
    acmeToken = a.token;
    acmeTokenId = a.id;
    globexToken = (await token(other)).token;
  });
  afterAll(async () => {
    await engine?.stop();
    await t?.close();
    await Promise.all([http?.close(), tls?.close()]);
  });

  it('serves the operator the platform metrics in a format promtool accepts', async () => {
    const r = await scrape(t.config.productDomain, { authorization: `Bearer ${metricsToken}` });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const check = promtool(r.text);
    expect(check.output).toBe('');
    expect(check.ok).toBe(true);
    // the checks this process ran, by kind and status
    expect(sample(r.text, 'statuswatch_checks_total', { kind: 'http', status: 'operational' })).toBeGreaterThanOrEqual(2);
    expect(sample(r.text, 'statuswatch_checks_total', { kind: 'http', status: 'down' })).toBeGreaterThanOrEqual(1);
    expect(sample(r.text, 'statuswatch_checks_total', { kind: 'ssl', status: 'operational' })).toBeGreaterThanOrEqual(1);
    expect(sample(r.text, 'statuswatch_scheduling_lag_seconds_count')).toBeGreaterThanOrEqual(4);
    expect(sample(r.text, 'statuswatch_results_pending')).toBe(0);
    expect(sample(r.text, 'statuswatch_outbox_deliveries', { state: 'pending' })).toBeGreaterThanOrEqual(0);
    expect(sample(r.text, 'statuswatch_outbox_deliveries', { state: 'failed' })).toBe(0);
    expect(sample(r.text, 'statuswatch_db_query_duration_seconds_count', { db: kind, outcome: 'ok' })).toBeGreaterThan(10);
    expect(sample(r.text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    // request durations by route pattern, never by raw URL (ids stay out of the labels)
    expect(
      sample(r.text, 'statuswatch_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/monitors', code: '201' }),
    ).toBeGreaterThanOrEqual(4);
    await admin.get(`/api/v1/monitors/${ids.shop}`);
    const again = await scrape(t.config.productDomain, { authorization: `Bearer ${metricsToken}` });
    expect(
      sample(again.text, 'statuswatch_http_request_duration_seconds_count', { route: '/api/v1/monitors/:id', code: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(again.text).not.toContain(ids.shop);
  });

  it('counts the spans the OTLP ingest accepted', async () => {
    const key = await admin.post('/api/v1/api-keys', { name: 'ingest', scope: 'ingest' });
    expect(key.status, key.text).toBe(201);
    const span = {
      traceId: '5b8efff798038103d269b633813fc60c',
      spanId: 'eee19b7ec3c1b174',
      name: 'GET /',
      kind: 2,
      startTimeUnixNano: String(Date.now() * 1e6),
      endTimeUnixNano: String((Date.now() + 5) * 1e6),
    };
    const body = JSON.stringify({
      resourceSpans: [
        { resource: { attributes: [{ key: 'service.name', value: { stringValue: 'shop' } }] }, scopeSpans: [{ spans: [span] }] },
      ],
    });
    const before =
      sample((await scrape(t.config.productDomain, { authorization: `Bearer ${metricsToken}` })).text, 'statuswatch_ingest_spans_total', {
        outcome: 'accepted',
      }) ?? 0;
    const sent = await rawRequest(
      `${t.baseUrl}/v1/traces`,
      'POST',
      { host: acmeHost, 'content-type': 'application/json', authorization: `Bearer ${key.body.key}` },
      body,
    );
    expect(sent.status, sent.text).toBe(200);
    const after = sample(
      (await scrape(t.config.productDomain, { authorization: `Bearer ${metricsToken}` })).text,
      'statuswatch_ingest_spans_total',
      { outcome: 'accepted' },
    );
    expect(after).toBe(before + 1);
  });

  it('answers a wrong or missing operator token 401 without a word of the metrics, and 404 when no METRICS_TOKEN is set', async () => {
    for (const headers of [{ authorization: `Bearer ${metricsToken}x` }, { authorization: 'Bearer swt_whatever' }, {}] as Record<
      string,
      string
    >[]) {
      const r = await scrape(t.config.productDomain, headers);
      expect(r.status).toBe(401);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(r.text).not.toContain('statuswatch_');
      expect(r.text).not.toContain(metricsToken);
    }
    const saved = t.services.config.metricsToken;
    t.services.config.metricsToken = undefined;
    try {
      const r = await scrape(t.config.productDomain, { authorization: `Bearer ${metricsToken}` });
      expect(r.status).toBe(404);
      expect(r.text).not.toContain('statuswatch_');
    } finally {
      t.services.config.metricsToken = saved;
    }
  });

  it('leaves /metrics to the console for a browser (no bearer, HTML accepted)', async () => {
    const r = await rawRequest(`${t.baseUrl}/metrics`, 'GET', { host: t.config.productDomain, accept: BROWSER_ACCEPT });
    // API-only test server: the console's pages are not mounted, so the not-found handler answers.
    expect(r.status).toBe(404);
    expect(r.text).not.toContain('statuswatch_');
  });

  it("serves a company its monitors' status, response time, uptime and certificate expiry, escaped, and nothing of another company", async () => {
    const r = await scrape(acmeHost, { authorization: `Bearer ${acmeToken}` });
    expect(r.status, r.text).toBe(200);
    const check = promtool(r.text);
    expect(check.output).toBe('');
    expect(check.ok).toBe(true);
    const shop = { monitor_id: ids.shop, monitor_name: 'Shop \\"API\\" \\\\ west', kind: 'http' };
    expect(sample(r.text, 'statuswatch_monitor_status', { ...shop, state: 'operational' })).toBe(1);
    expect(sample(r.text, 'statuswatch_monitor_status', { ...shop, state: 'down' })).toBe(0);
    expect(sample(r.text, 'statuswatch_monitor_status', { monitor_id: ids.down, state: 'down' })).toBe(1);
    expect(sample(r.text, 'statuswatch_monitor_response_time_seconds', shop)).toBeGreaterThan(0);
    expect(sample(r.text, 'statuswatch_monitor_response_time_seconds', shop)).toBeLessThan(2);
    expect(sample(r.text, 'statuswatch_monitor_uptime_ratio', { ...shop, window: '24h' })).toBe(1);
    expect(sample(r.text, 'statuswatch_monitor_uptime_ratio', { monitor_id: ids.down, window: '24h' })).toBe(0);
    const cert = await t.services.db.k
      .selectFrom('monitors')
      .select('cert_expires_at')
      .where('id', '=', ids.cert)
      .executeTakeFirstOrThrow();
    expect(cert.cert_expires_at).toBeGreaterThan(Date.now());
    expect(sample(r.text, 'statuswatch_monitor_cert_expiry_timestamp_seconds', { monitor_id: ids.cert, kind: 'ssl' })).toBe(
      cert.cert_expires_at! / 1000,
    );
    expect(r.text).not.toContain(ids.globex);
    expect(r.text).not.toContain('Globex');
    expect(r.text).not.toContain('statuswatch_checks_total'); // the operator's figures stay the operator's
  });

  it("refuses a company scrape without a token, with a revoked one, with the operator's token or with another company's", async () => {
    for (const headers of [{}, { authorization: 'Bearer swt_notatoken' }, { authorization: `Bearer ${metricsToken}` }] as Record<
      string,
      string
    >[]) {
      const r = await scrape(acmeHost, headers);
      expect(r.status, JSON.stringify(headers)).toBe(401);
      expect(r.text).not.toContain('statuswatch_');
    }
    const foreign = await scrape(acmeHost, { authorization: `Bearer ${globexToken}` });
    expect(foreign.status).toBe(403);
    expect(foreign.text).not.toContain('statuswatch_');
    const revoked = await admin.delete(`/api/v1/api-tokens/${acmeTokenId}`);
    expect(revoked.status, revoked.text).toBe(200);
    const r = await scrape(acmeHost, { authorization: `Bearer ${acmeToken}` });
    expect(r.status).toBe(401);
    expect(r.text).not.toContain(ids.shop);
  });
});

describe('/metrics with the pages mounted', () => {
  const metricsToken = randomBytes(32).toString('hex');
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite', withPages: true, env: { METRICS_TOKEN: metricsToken } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("gives a browser the console's Metrics page and Prometheus the metrics, at the same address", async () => {
    const scrape = () =>
      rawRequest(`${t.baseUrl}/metrics`, 'GET', {
        host: t.config.productDomain,
        accept: PROMETHEUS_ACCEPT,
        authorization: `Bearer ${metricsToken}`,
      });
    const before = await scrape();
    expect(before.status).toBe(200);
    expect(before.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(promtool(before.text).ok).toBe(true);
    const page = await rawRequest(`${t.baseUrl}/metrics`, 'GET', { host: t.config.productDomain, accept: BROWSER_ACCEPT });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<html');
    expect(page.text).not.toContain('statuswatch_');
    // the page is measured too: Astro's pages share one label, the scrape has its route
    const count = (text: string, route: string, code: number) =>
      sample(text, 'statuswatch_http_request_duration_seconds_count', { method: 'GET', route, code: String(code) }) ?? 0;
    const after = await scrape();
    expect(count(after.text, '(unmatched)', page.status) - count(before.text, '(unmatched)', page.status)).toBe(1);
    expect(count(after.text, '/metrics', 200) - count(before.text, '/metrics', 200)).toBe(1);
  });
});
