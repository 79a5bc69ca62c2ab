// Anomaly watching end to end (issue 33, item 2), on both databases: the anomaly-watch job over
// seeded hourly rollups raises exactly one `anomaly` notification for an injected slowdown (and
// one when it ends), none for a clean history and none while ENABLE_ADVANCED_ANALYTICS is off;
// real OTLP spans sent with the OpenTelemetry SDK that fail for a monitor's host while its probes
// see it up raise the divergence notification; the settings API (permission, audit, per-field
// problems). The job runs at chosen times (its `now`); the server runs on the real clock.
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LatencySketch } from '../../../src/lib/latency-sketch.ts';
import { locationRollupsRepo } from '../../../src/server/db/repositories/location-rollups-repo.ts';
import { anomalyWatch } from '../../../src/server/jobs/anomaly-watch.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { insertRollups } from '../../support/rollups.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { HOUR, DAY, seedMonitor } from '../public/fixtures.ts';
import { sendWithSdk } from '../telemetry/otel-sdk.ts';

/** An hour of checks as the result writer stores it: its answers in the latency sketch. */
const hourOfChecks = (monitorId: string, start: number, median: number) => {
  const sketch = new LatencySketch();
  for (const f of [0.9, 0.95, 0.98, 1, 1, 1.02, 1.05, 1.1, 1.2]) sketch.add(median * f);
  return { monitor_id: monitorId, hour_start: start, checks: 9, response_sketch: sketch.serialize(), sum_response_ms: 9 * median };
};
/** A daily curve: afternoons slower, with a little alternating noise. */
const usual = (t: number) => {
  const hour = new Date(t).getUTCHours();
  return (hour >= 12 && hour < 18 ? 160 : 100) * (1 + ((t / HOUR) % 3) * 0.02);
};

describe.each(DB_KINDS)('anomaly watching on %s', (kind) => {
  let t: TestApp;
  let acme: { id: string };
  let admin: ApiClient;
  let viewer: ApiClient;
  let root: ApiClient;
  /** The first slow hour: two days ago, so every window the job judges is over */
  // 02:00 UTC two days ago: the slow hours and their baseline then lie outside the curve's slower
  // afternoon whatever the time the suite runs (from hourOf(now), the run failed from 10:00 UTC,
  // its third slow hour reaching 12:00 with a usual 160 ms where 10x ms was expected).
  const slowFrom = Math.floor(Date.now() / DAY) * DAY - 2 * DAY + 2 * HOUR;
  const on = { host: 'acme.localhost' };

  beforeAll(async () => {
    t = await startTestApp({ db: kind });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme', plan: 'enterprise' });
    admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }), 'acme.localhost');
    viewer = t.client();
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }), 'acme.localhost');
    root = t.client();
    await signIn(root, await seedUser(t.services, { userType: 1 }));
  });
  afterAll(async () => {
    await t?.close();
  });

  const setFlag = async (on: boolean) =>
    expect((await root.put('/api/v1/admin/flags', { ENABLE_ADVANCED_ANALYTICS: on })).status).toBe(200);
  const anomalyNotices = async (client: ApiClient) => {
    const r = await client.get('/api/v1/notifications/?notification_type=anomaly', on);
    expect(r.status).toBe(200);
    return r.body as Array<{ title: string; message: string; severity: string; action_url: string; metadata: Record<string, any> }>;
  };

  it('an injected slowdown raises one notification with its evidence, and one when it ends; a clean history none; nothing while the flag is off', async () => {
    const shop = await seedMonitor(t.services.db, acme.id, Date.now(), { name: 'Shop' });
    const api = await seedMonitor(t.services.db, acme.id, Date.now(), { name: 'API' });
    const history = (id: string) =>
      Array.from({ length: 14 * 24 }, (_, i) => slowFrom - (14 * 24 - i) * HOUR).map((h) => hourOfChecks(id, h, usual(h)));
    await insertRollups(t.services.db, 'hourly', [...history(shop.id), ...history(api.id)]);
    // Shop: three hours four times slower; API: as usual.
    await insertRollups(t.services.db, 'hourly', [
      ...[0, 1, 2].map((i) => hourOfChecks(shop.id, slowFrom + i * HOUR, 4 * usual(slowFrom + i * HOUR))),
      ...[0, 1, 2].map((i) => hourOfChecks(api.id, slowFrom + i * HOUR, usual(slowFrom + i * HOUR))),
    ]);
    const afterThird = slowFrom + 3 * HOUR + 5 * 60_000;

    await setFlag(false);
    expect(await anomalyWatch.run(t.services, afterThird)).toBeUndefined();
    expect(await anomalyNotices(admin)).toEqual([]);

    await setFlag(true);
    // Two slow hours are not yet a run.
    await anomalyWatch.run(t.services, slowFrom + 2 * HOUR + 5 * 60_000);
    expect(await anomalyNotices(admin)).toEqual([]);
    expect(await anomalyWatch.run(t.services, afterThird)).toBe('1 anomalies raised, 0 ended');
    // Later runs during the same episode send nothing more.
    await anomalyWatch.run(t.services, afterThird + 5 * 60_000);
    const [raised, ...more] = await anomalyNotices(viewer);
    expect(more).toEqual([]);
    expect(raised).toMatchObject({ title: 'Shop is slower than usual', severity: 'medium', action_url: `/monitors/${shop.id}` });
    expect(raised.message).toMatch(
      /^Median response time \d+(\.\d)? ms, usually 10\d(\.\d)? ms at this hour of the day .* slow for 3 hours in a row\.$/,
    );
    const [evidence] = raised.metadata.evidence;
    expect(evidence).toMatchObject({ kind: 'latency_anomaly', source: { href: `/monitors/${shop.id}` } });
    expect(evidence.data.observed_ms / evidence.data.baseline_ms).toBeGreaterThan(3.5);
    expect(evidence.data).toMatchObject({ window_minutes: 60, anomalous_windows: 3, since: new Date(slowFrom).toISOString() });
    expect(evidence.data.deviation).toBeGreaterThan(5);

    const episodes = await viewer.get('/api/v1/anomalies', on);
    expect(episodes.status).toBe(200);
    expect(episodes.body).toMatchObject([{ kind: 'latency', subject: `monitor:${shop.id}`, title: 'Shop', resolved_at: null }]);

    // Two usual hours end it: one notification says so.
    await insertRollups(
      t.services.db,
      'hourly',
      [3, 4].map((i) => hourOfChecks(shop.id, slowFrom + i * HOUR, usual(slowFrom + i * HOUR))),
    );
    expect(await anomalyWatch.run(t.services, slowFrom + 5 * HOUR + 5 * 60_000)).toBe('0 anomalies raised, 1 ended');
    await anomalyWatch.run(t.services, slowFrom + 5 * HOUR + 10 * 60_000);
    const notices = await anomalyNotices(admin);
    expect(notices.map((n) => [n.title, n.severity, n.metadata.event])).toEqual([
      ['Shop is back to its usual latency', 'info', 'resolved'],
      ['Shop is slower than usual', 'medium', 'opened'],
    ]);
    expect((await viewer.get('/api/v1/anomalies', on)).body[0].resolved_at).toBe(new Date(slowFrom + 5 * HOUR + 5 * 60_000).toISOString());

    // Latency watching off for the company: a new slowdown raises nothing.
    expect((await admin.put('/api/v1/anomaly-settings', { latency: 'off' }, on)).status).toBe(200);
    await insertRollups(
      t.services.db,
      'hourly',
      [5, 6, 7].map((i) => hourOfChecks(api.id, slowFrom + i * HOUR, 5 * usual(slowFrom + i * HOUR))),
    );
    await anomalyWatch.run(t.services, slowFrom + 8 * HOUR + 5 * 60_000);
    expect(await anomalyNotices(admin)).toHaveLength(2);
    expect((await admin.put('/api/v1/anomaly-settings', { latency: 'normal' }, on)).status).toBe(200);
  });

  it('an API endpoint much slower than usual raises its own anomaly, linked to API intelligence', async () => {
    await setFlag(true);
    const initech = await seedCompany(t.services, { name: 'Initech', subdomain: 'initech' });
    const iAdmin = t.client();
    await signIn(iAdmin, await seedUser(t.services, { userType: 2, companyId: initech.id }), 'initech.localhost');
    const endpointHour = (start: number, median: number) => {
      const sketch = new LatencySketch();
      for (const f of [0.8, 0.9, 1, 1, 1.1, 1.3]) sketch.add(median * f);
      return {
        company_id: initech.id,
        minute_ms: start,
        service: 'billing',
        method: 'GET',
        route: '/invoices/{id}',
        requests: 6,
        errors: 0,
        sum_ms: 6 * median,
        c2xx: 6,
        c3xx: 0,
        c4xx: 0,
        c5xx: 0,
        codes: '200*6',
        hist: sketch.serialize(),
      };
    };
    const hours = Array.from({ length: 10 * 24 }, (_, i) => slowFrom - (10 * 24 - i) * HOUR);
    await t.services.db.k
      .insertInto('endpoint_rollups_hourly')
      .values([
        ...hours.map((h) => endpointHour(h, usual(h))),
        ...[0, 1, 2].map((i) => endpointHour(slowFrom + i * HOUR, 6 * usual(slowFrom + i * HOUR))),
      ])
      .execute();
    await anomalyWatch.run(t.services, slowFrom + 3 * HOUR + 5 * 60_000);
    const r = await iAdmin.get('/api/v1/notifications/?notification_type=anomaly', { host: 'initech.localhost' });
    expect(r.body.map((n: { title: string; action_url: string }) => [n.title, n.action_url])).toEqual([
      ['GET /invoices/{id} (billing) is slower than usual', '/api-intelligence'],
    ]);
    expect(r.body[0].metadata.evidence[0].data).toMatchObject({
      service: 'billing',
      method: 'GET',
      route: '/invoices/{id}',
      anomalous_windows: 3,
    });
  });

  it('one location slow while the other is not raises an anomaly naming the location', async () => {
    await setFlag(true);
    const umbrella = await seedCompany(t.services, { name: 'Umbrella', subdomain: 'umbrella' });
    const uAdmin = t.client();
    await signIn(uAdmin, await seedUser(t.services, { userType: 2, companyId: umbrella.id }), 'umbrella.localhost');
    const site = await seedMonitor(t.services.db, umbrella.id, Date.now(), { name: 'Site' });
    const num = 900 + (kind === 'sqlite' ? 1 : 2);
    await t.services.db.k
      .insertInto('probe_locations')
      .values({
        id: `loc-${num}`,
        num,
        slug: `frankfurt-${num}`,
        name: 'Frankfurt',
        company_id: null,
        created_at: Date.now(),
        created_by: null,
        offline_since: null,
        flagged_since: null,
      })
      .execute();
    const { num: monitorNum } = await t.services.db.k
      .selectFrom('monitors')
      .select('num')
      .where('id', '=', site.id)
      .executeTakeFirstOrThrow();
    const hours = Array.from({ length: 10 * 24 + 3 }, (_, i) => slowFrom - 10 * 24 * HOUR + i * HOUR);
    const row = (location: number, start: number, median: number) => ({
      ...hourOfChecks(site.id, start, median),
      company_id: umbrella.id,
      start,
      location,
      checks: 9,
      failures: 0,
      degraded: 0,
      maintenance: 0,
      min_response_ms: null,
      max_response_ms: null,
      p95_response_ms: null,
      last_status: null,
      last_http_code: null,
      last_checked_at: null,
      phase_sums: null,
    });
    await locationRollupsRepo(t.services.db).putMany(
      [...hours.map((h) => row(0, h, usual(h))), ...hours.map((h) => row(num, h, h >= slowFrom ? 5 * usual(h) : usual(h)))],
      new Map([[site.id, Number(monitorNum)]]),
    );
    await anomalyWatch.run(t.services, slowFrom + 3 * HOUR + 5 * 60_000);
    const r = await uAdmin.get('/api/v1/notifications/?notification_type=anomaly', { host: 'umbrella.localhost' });
    expect(r.body.map((n: { title: string }) => n.title)).toEqual(['Site from Frankfurt is slower than usual']);
    expect(r.body[0].metadata.evidence[0].data).toMatchObject({ location: 'Frankfurt', anomalous_windows: 3 });
  });

  it("real traffic failing for a monitor's host while its probes see it up raises the divergence notification", async () => {
    await setFlag(true);
    const globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    const gAdmin = t.client();
    await signIn(gAdmin, await seedUser(t.services, { userType: 2, companyId: globex.id }), 'globex.localhost');
    const gOn = { host: 'globex.localhost' };
    const checkout = await seedMonitor(t.services.db, globex.id, Date.now(), {
      name: 'Checkout',
      url: 'https://pay.globex.example/health',
    });
    await t.services.db.k.updateTable('monitors').set({ destination_host: 'pay.globex.example' }).where('id', '=', checkout.id).execute();
    // A monitor whose host the spans never name stays quiet.
    await seedMonitor(t.services.db, globex.id, Date.now(), { name: 'Blog', url: 'https://blog.globex.example/' });

    const key = (await gAdmin.post('/api/v1/api-keys', { name: 'prod', scope: 'ingest' }, gOn)).body.key as string;
    const start = Date.now() - 5 * 60_000;
    await sendWithSdk({
      url: `${t.baseUrl}/v1/traces`,
      key,
      format: 'protobuf',
      resource: { 'service.name': 'storefront' },
      roots: Array.from({ length: 30 }, (_, i) => ({
        name: 'POST /pay',
        kind: SpanKind.CLIENT,
        startMs: start + i * 1000,
        durationMs: 40,
        error: i % 5 < 2,
        errorMessage: i % 5 < 2 ? 'connection reset by peer' : undefined,
        attributes: { 'server.address': 'pay.globex.example', 'http.request.method': 'POST' },
      })),
    });
    await anomalyWatch.run(t.services, Date.now() + 1000);
    const r = await gAdmin.get('/api/v1/notifications/?notification_type=anomaly', gOn);
    expect(r.body).toHaveLength(1);
    expect(r.body[0]).toMatchObject({
      title: 'Checkout: real traffic fails while the probes see it up',
      severity: 'high',
      message:
        '12 of 30 calls to pay.globex.example by your services failed in the last 15 minutes (40 %), while the probes see Checkout up.',
      action_url: `/monitors/${checkout.id}`,
    });
    expect(r.body[0].metadata.evidence[0].data).toMatchObject({
      divergence: 'probes_up_traffic_failing',
      calls: 30,
      errors: 12,
      services: ['storefront'],
      top_errors: ['connection reset by peer (12)'],
    });
    // Acme's people hear nothing of Globex's traffic.
    expect((await anomalyNotices(admin)).some((n) => n.title.startsWith('Checkout'))).toBe(false);
  });

  it('settings: members read the defaults, admins change them (audited), viewers may not, bad levels are refused per field', async () => {
    const got = await viewer.get('/api/v1/anomaly-settings', on);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ company_id: acme.id, latency: 'normal', divergence: 'normal' });

    const denied = await viewer.put('/api/v1/anomaly-settings', { latency: 'high' }, on);
    expect(denied.status).toBe(403);

    const bad = await admin.put('/api/v1/anomaly-settings', { latency: 'loud', divergence: 'high' }, on);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ latency: 'Choose off, low, normal, high' });
    expect((await admin.put('/api/v1/anomaly-settings', { volume: 'high' }, on)).status).toBe(400);
    expect((await admin.put('/api/v1/anomaly-settings', {}, on)).status).toBe(400);

    const saved = await admin.put('/api/v1/anomaly-settings', { latency: 'high' }, on);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ latency: 'high', divergence: 'normal', updated_at: expect.any(String) });
    expect((await viewer.get('/api/v1/anomaly-settings', on)).body.latency).toBe('high');

    const audit = await t.services.db.k
      .selectFrom('audit_events')
      .select(['details', 'tenant_id'])
      .where('event', '=', 'settings_update')
      .orderBy('timestamp', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.tenant_id).toBe(acme.id);
    expect(JSON.parse(String(audit.details))).toMatchObject({ anomaly_settings: { anomaly_latency: { from: 'normal', to: 'high' } } });

    // A super admin names the company; without one the answer says so.
    expect((await root.get(`/api/v1/anomaly-settings?tenant=${acme.id}`)).body.latency).toBe('high');
    const noTenant = await root.get('/api/v1/anomaly-settings');
    expect(noTenant.status).toBe(400);
    expect(noTenant.body.errors).toHaveProperty('tenant');
  });
});
