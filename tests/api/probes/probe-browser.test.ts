// Browser checks on probes (issue 29 with issue 27): a probe whose machine has Chromium says so at
// hello (`capabilities: ['browser']`), and only then may a browser monitor name its location. Two
// real probe processes of one private location: one with browser checks switched off leaves the
// browser monitor to the other, which runs the journey in its own Chromium against the loopback
// shop; the failing step's screenshot travels with the result and the platform keeps and serves
// it like its own engine's. On SQLite and PostgreSQL.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inboxDrained } from '../../../src/server/domain/probes/inbox.ts';
import { startShop, type Shop } from '../../support/kind-servers/shop.ts';
import { ACME, type ProbeProcess, type ProbeWorld, said, seedProbeWorld, startProbeProcess } from '../../support/probe-fixtures.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS, tempDir } from '../../support/test-db.ts';
import { waitFor } from '../../support/wait-for.ts';

const LONG = { timeoutMs: 90_000 };
const NO_BROWSER =
  'Location "lab" has no probe that runs browser checks: start its probe on a machine with Chromium (CHROMIUM_PATH), or choose another location';

describe.each(DB_KINDS)('browser checks on a probe, on %s', (kind) => {
  let t: TestApp;
  let w: ProbeWorld;
  let shop: Shop;
  const running: ProbeProcess[] = [];

  beforeAll(async () => {
    shop = await startShop();
    t = await startTestApp({
      db: kind,
      env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1', BROWSER_MIN_INTERVAL_SECONDS: '5' },
    });
    w = await seedProbeWorld(t);
  }, 60_000);
  afterEach(({ task }) => {
    if (task.result?.state === 'fail') for (const p of running) console.log(p.lines.join('\n'));
    for (const p of running.splice(0)) p.child.kill('SIGKILL');
  });
  afterAll(async () => {
    await t?.close();
    await shop?.close();
  });

  const probe = (instance: string, browser: 'true' | 'false') => {
    const p = startProbeProcess({
      PROBE_URL: `http://localhost:${t.port}`,
      PROBE_TOKEN: w.acmeLab.token,
      PROBE_INSTANCE: instance,
      PROBE_BUFFER_DIR: tempDir('probe-buffer-'),
      ALLOW_PRIVATE_TARGETS: 'true',
      PROBE_BROWSER_CHECKS: browser,
      BROWSER_CONCURRENCY: '1',
    });
    running.push(p);
    return p;
  };
  const journey = (over: Record<string, unknown> = {}) => ({
    name: 'Shop from the lab',
    type: 'browser',
    interval_seconds: 5,
    timeout_seconds: 30,
    confirmations: 1,
    is_public: false,
    locations: ['lab'],
    steps: [
      { action: 'goto', name: 'Open the shop', url: shop.url('/') },
      { action: 'goto', name: 'Open offers', url: shop.url('/offers') },
    ],
    ...over,
  });
  const labDetail = async () => (await w.acmeAdmin.get(`/api/v1/probe-locations/${w.acmeLab.id}`, ACME)).body;

  it('takes browser monitors only where a probe has Chromium, runs them there and keeps the failing step’s screenshot', async () => {
    const plain = probe('rack-plain', 'false');
    await waitFor(() => said(plain, 'connected to') && said(plain, 'no browser checks'), { ...LONG, what: 'the probe without a browser' });
    expect((await labDetail()).browser_checks).toBe(false);
    const refused = await w.acmeAdmin.post('/api/v1/monitors', journey(), ACME);
    expect(refused.status).toBe(400);
    expect(refused.body.errors.locations).toBe(NO_BROWSER);

    const chromium = probe('rack-chromium', 'true');
    await waitFor(() => said(chromium, 'browser checks with Chromium at'), { ...LONG, what: 'the probe with Chromium' });
    const detail = await labDetail();
    expect(detail.browser_checks).toBe(true);
    expect(
      Object.fromEntries(detail.probes.map((p: { instance: string; capabilities: string[] }) => [p.instance, p.capabilities])),
    ).toEqual({
      'rack-plain': [],
      'rack-chromium': ['browser'],
    });
    const list = (await w.acmeAdmin.get('/api/v1/probe-locations', ACME)).body;
    expect(list.find((l: { slug: string }) => l.slug === 'lab').browser_checks).toBe(true);
    // The other company's lab has no browser probe: its admins are told so.
    expect((await w.globexAdmin.post('/api/v1/monitors', journey(), { host: 'globex.localhost' })).body.errors?.locations).toBe(NO_BROWSER);

    const created = await w.acmeAdmin.post('/api/v1/monitors', journey(), ACME);
    expect(created.status).toBe(201);
    expect(created.body.locations).toEqual(['lab']);
    const id = created.body.id as string;

    await waitFor(() => said(plain, `monitor ${id}: browser checks need Chromium on this probe`), {
      ...LONG,
      what: 'the probe without a browser to leave the monitor to the other',
    });
    const m = await waitFor(
      async () => {
        await inboxDrained(t.services);
        const r = await w.acmeAdmin.get(`/api/v1/monitors/${id}`, ACME);
        return r.body.last_run?.steps?.[1]?.screenshot_id ? r.body : null;
      },
      { ...LONG, what: "the probe's journey to be stored with its screenshot" },
    );
    expect(m.last_error).toBe('Acme lab: Step 2 (Open offers): the page answered HTTP 404');
    expect(m.last_run.steps.map((s: { status: string }) => s.status)).toEqual(['passed', 'failed']);
    expect(m.status).toBe('down');
    expect(m.location_status.map((l: { slug: string; status: string }) => [l.slug, l.status])).toEqual([['lab', 'down']]);
    const png = await w.acmeAdmin.get(`/api/v1/monitors/${id}/screenshots/${m.last_run.steps[1].screenshot_id}`, ACME);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    // Only the probe with Chromium walked the shop (it answers the journey's two pages to one browser).
    expect(shop.requests.some((r) => r.path === '/offers')).toBe(true);
    expect(said(chromium, `monitor ${id}:`)).toBe(false);
  }, 240_000);
});
