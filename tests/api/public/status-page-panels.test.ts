// Response-time charts and the security panel on the public status page (issue 32 items 4 and 5),
// on SQLite and PostgreSQL. Charts: a company admin turns one on per component in the layout; the
// page then draws each complete hour's (24 h, 7 d) or day's (30 d) mean response time from the
// stored rollups, per location too when the component shows its locations; the SVG paths read
// back to the seeded means, the hour under way is left out, a component without data says so.
// Security panel: off until the company turns it on; then only its verified domains and hosts,
// each with the date measured and what the latest stored result says; never another company's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LatencySketch } from '../../../src/lib/latency-sketch.ts';
import { niceMax, readPath } from '../../../src/lib/response-chart.ts';
import { DAY_MS, HOUR_MS, dayStart, hourStart } from '../../../src/lib/timeline.ts';
import { locationRollupsRepo } from '../../../src/server/db/repositories/location-rollups-repo.ts';
import { monitorNumbers } from '../../../src/server/db/repositories/monitor-numbers.ts';
import type { RollupRecord } from '../../../src/server/db/repositories/rollups-repo.ts';
import { newId } from '../../../src/server/domain/ids.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { insertRollups } from '../../support/rollups.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedMonitor, type SeededMonitor } from './fixtures.ts';

// 09:20 UTC: the hour under way (09:00) is left out of every chart
const START = Date.UTC(2026, 10, 29, 9, 20, 0);

/** The mean the page should draw for an hour of Shop (distinct for every hour). */
const shopMean = (hour: number) => 100 + ((hour / HOUR_MS) % 53) + 0.25;
const frankfurtMean = (hour: number) => 60 + ((hour / HOUR_MS) % 29);
const shopDayMean = (day: number) => 150 + ((day / DAY_MS) % 31);

/** A rollup of `n` timed checks averaging `mean` ms (half at mean-10, half at mean+10). */
function timed(
  mean: number,
  n = 10,
): Pick<RollupRecord, 'checks' | 'sum_response_ms' | 'response_sketch' | 'min_response_ms' | 'max_response_ms'> {
  const s = new LatencySketch();
  s.add(mean - 10, n / 2);
  s.add(mean + 10, n / 2);
  return { checks: n, sum_response_ms: mean * n, response_sketch: s.serialize(), min_response_ms: mean - 10, max_response_ms: mean + 10 };
}

interface Drawn {
  max: number;
  periods: number;
  paths: Map<string, string>;
}

/** The chart of a component and range on the page: its scale and each line's path. */
function chartOf(html: string, monitorId: string, range: string): Drawn | 'empty' | null {
  const at = html.indexOf(`data-chart="${monitorId}"`);
  if (at < 0) return null;
  const card = html.slice(at, html.indexOf('</article>', at));
  const from = card.indexOf(`data-range="${range}"`);
  const part = card.slice(from, card.indexOf('</details>', from));
  if (part.includes('class="rc-empty"')) return 'empty';
  const svg = /<svg[^>]*data-max="([\d.]+)"[^>]*data-periods="(\d+)"/.exec(part)!;
  const paths = new Map<string, string>();
  for (const m of part.matchAll(/<path class="rc-line" d="([^"]*)" data-series="([^"]*)"/g)) paths.set(m[2], m[1]);
  return { max: Number(svg[1]), periods: Number(svg[2]), paths };
}

describe.each(DB_KINDS)('status page panels on %s', (kind) => {
  let t: TestApp;
  let clock = START;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  let host = '';
  let admin: ApiClient;
  let viewer: ApiClient;
  let shop: SeededMonitor;
  let api: SeededMonitor;
  let web: SeededMonitor;
  const thisHour = hourStart(START);
  const today = dayStart(START);

  const page = async () => {
    clock += 1500;
    const r = await t.client().get('/', { host });
    expect(r.status).toBe(200);
    // Astro's scoping attributes are not what a visitor reads
    return (r.text as string).replace(/ data-astro-cid-\w+/g, '');
  };

  async function asset(companyId: string, hostname: string, assetKind: 'domain' | 'host', verified: boolean, renewal = false) {
    const id = newId();
    await t.services.db.k
      .insertInto('security_assets')
      .values({
        id,
        company_id: companyId,
        hostname,
        kind: assetKind,
        verification_token: newId(),
        verification_method: verified ? 'dns_txt' : null,
        verified_at: verified ? clock - DAY_MS : null,
        last_verification_at: clock - DAY_MS,
        last_verification_error: null,
        verified_addresses: null,
        renewal_reason: renewal ? 'points elsewhere' : null,
        renewal_needed_at: renewal ? clock : null,
        created_at: clock - 2 * DAY_MS,
        updated_at: clock - DAY_MS,
      } as never)
      .execute();
    return id;
  }

  async function result(assetId: string, companyId: string, source: 'ssl' | 'dns', checkedAt: number, grade: string | null, data: object) {
    await t.services.db.k
      .insertInto('security_results')
      .values({ asset_id: assetId, source, company_id: companyId, checked_at: checkedAt, grade, data: JSON.stringify(data) })
      .execute();
  }

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, withPages: true });
    acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: `sppanel${kind}` });
    globex = await seedCompany(t.services, { name: 'Globex', subdomain: `spglobex${kind}` });
    host = `${acme.subdomain}.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    viewer = new ApiClient(t.baseUrl, host);
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }));
    shop = await seedMonitor(t.services.db, acme.id, clock, { name: 'Shop' });
    api = await seedMonitor(t.services.db, acme.id, clock, { name: 'API' });
    web = await seedMonitor(t.services.db, acme.id, clock, { name: 'Website' });
    await t.services.db.k
      .insertInto('probe_locations')
      .values([{ id: newId(), num: 1, slug: 'eu-west', name: 'Frankfurt', company_id: null, created_at: clock, created_by: null }])
      .execute();

    // Shop: every hour of the last 8 days (hour 13 of each day without checks), the hour under
    // way far off the scale; every day of the last 31; Frankfurt's hours of the last 2 days.
    const hours = Array.from({ length: 8 * 24 }, (_, i) => thisHour - (8 * 24 - 1 - i) * HOUR_MS).filter(
      (h) => new Date(h).getUTCHours() !== 13,
    );
    await insertRollups(t.services.db, 'hourly', [
      ...hours.map((h) => ({ monitor_id: shop.id, hour_start: h, ...timed(h === thisHour ? 90_000 : shopMean(h)) })),
      // Website has data but no chart
      { monitor_id: web.id, hour_start: thisHour - HOUR_MS, ...timed(42) },
    ]);
    const days = Array.from({ length: 32 }, (_, i) => today - (31 - i) * DAY_MS);
    await insertRollups(
      t.services.db,
      'daily',
      days.map((d) => ({ monitor_id: shop.id, day_start: d, ...timed(d === today ? 90_000 : shopDayMean(d), 240) })),
    );
    const nums = await monitorNumbers(t.services.db, [shop.id]);
    const recent = hours.filter((h) => h >= thisHour - 48 * HOUR_MS);
    await locationRollupsRepo(t.services.db).putMany(
      recent.map((h) => ({
        monitor_id: shop.id,
        company_id: acme.id,
        location: 1,
        start: h,
        failures: 0,
        degraded: 0,
        maintenance: 0,
        p95_response_ms: null,
        last_status: null,
        last_http_code: null,
        last_checked_at: null,
        phase_sums: null,
        ...timed(frankfurtMean(h)),
      })),
      nums,
    );

    // Security: acme's verified domain and hosts, an unverified host, a host whose proof needs
    // renewing, and Globex's verified domain; every one of them with stored results.
    const domain = await asset(acme.id, 'acme.example', 'domain', true);
    const www = await asset(acme.id, 'www.acme.example', 'host', true);
    await asset(acme.id, 'api.acme.example', 'host', true);
    const staging = await asset(acme.id, 'staging.acme.example', 'host', false);
    const moved = await asset(acme.id, 'old.acme.example', 'host', true, true);
    const other = await asset(globex.id, 'globex.example', 'domain', true);
    await result(domain, acme.id, 'dns', Date.UTC(2026, 10, 28, 6), null, {
      registration_expires_at: thisHour + 200 * DAY_MS + 5,
      spf: { record: 'v=spf1 include:_spf.acme.example -all', count: 1, all: '-', lookups: 2, mechanisms: [], broken: [] },
      dmarc: { record: 'v=DMARC1; p=none', policy: 'none', subdomain_policy: null, pct: 100, rua: [] },
    });
    await result(www, acme.id, 'ssl', Date.UTC(2026, 10, 27, 3), 'A+', {
      hsts: 'max-age=63072000; includeSubDomains; preload',
      hsts_max_age: 63072000,
      cert_expires_at: thisHour + 45 * DAY_MS + 5,
    });
    for (const id of [staging, moved])
      await result(id, acme.id, 'ssl', clock, 'F', { hsts: null, hsts_max_age: 0, cert_expires_at: clock });
    await result(other, globex.id, 'dns', clock, null, { registration_expires_at: clock, spf: null, dmarc: null });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('draws no chart until the company turns one on', async () => {
    const html = await page();
    expect(html).not.toContain('data-chart=');
    const settings = await admin.get('/api/v1/status-page/settings');
    expect(settings.body.monitors.find((m: { id: string }) => m.id === shop.id).show_response_chart).toBe(false);
  });

  it("draws each complete hour's and day's mean from the rollups, per location when shown", async () => {
    const put = await admin.put('/api/v1/status-page/settings', {
      ungrouped: [
        { monitor_id: shop.id, is_public: true, public_name: null, show_locations: true, show_response_chart: true },
        { monitor_id: api.id, is_public: true, public_name: null, show_response_chart: true },
        { monitor_id: web.id, is_public: true, public_name: null },
      ],
      groups: [],
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.monitors.find((m: { id: string }) => m.id === shop.id).show_response_chart).toBe(true);
    const html = await page();
    expect(html).toContain('<h2 id="rc-title">Response times</h2>');
    expect(html).toContain('Average response time per hour (24 hours, 7 days) and per day (30 days)');

    const expectLine = (
      chart: Drawn,
      series: string,
      first: number,
      step: number,
      mean: (t: number) => number,
      has: (t: number) => boolean,
    ) => {
      const back = readPath(chart.paths.get(series)!, chart.max, chart.periods);
      const want = Array.from({ length: chart.periods }, (_, i) => first + i * step).flatMap((start, index) =>
        has(start) ? [{ index, ms: mean(start) }] : [],
      );
      expect(back.map((p) => p.index)).toEqual(want.map((p) => p.index));
      for (const [i, p] of back.entries()) expect(Math.abs(p.ms - want[i].ms)).toBeLessThanOrEqual(chart.max / 1000);
    };
    const noon13 = (h: number) => new Date(h).getUTCHours() !== 13;

    const h24 = chartOf(html, shop.id, '24h') as Drawn;
    expect(h24.periods).toBe(24);
    const first24 = thisHour - 24 * HOUR_MS;
    expect(h24.max).toBe(
      niceMax(
        Array.from({ length: 24 }, (_, i) => first24 + i * HOUR_MS)
          .filter(noon13)
          .map(shopMean),
      ),
    );
    expectLine(h24, 'total', first24, HOUR_MS, shopMean, noon13);
    expectLine(h24, 'Frankfurt', first24, HOUR_MS, frankfurtMean, noon13);

    const d7 = chartOf(html, shop.id, '7d') as Drawn;
    expect(d7.periods).toBe(168);
    expectLine(d7, 'total', thisHour - 168 * HOUR_MS, HOUR_MS, shopMean, noon13);
    // Frankfurt has only its last 48 hours
    expectLine(d7, 'Frankfurt', thisHour - 168 * HOUR_MS, HOUR_MS, frankfurtMean, (h) => noon13(h) && h >= thisHour - 48 * HOUR_MS);

    const d30 = chartOf(html, shop.id, '30d') as Drawn;
    expect(d30.periods).toBe(30);
    expectLine(d30, 'total', today - 30 * DAY_MS, DAY_MS, shopDayMean, () => true);
    // a location's day is its hours summed: mean of the day's hourly means (equal counts each hour)
    const dayOfFrankfurt = (d: number) => {
      const hs = Array.from({ length: 24 }, (_, i) => d + i * HOUR_MS).filter(
        (h) => noon13(h) && h >= thisHour - 48 * HOUR_MS && h < thisHour,
      );
      return hs.reduce((a, h) => a + frankfurtMean(h), 0) / hs.length;
    };
    expectLine(d30, 'Frankfurt', today - 30 * DAY_MS, DAY_MS, dayOfFrankfurt, (d) => d >= dayStart(thisHour - 48 * HOUR_MS));

    // the hidden table gives the same figures to screen readers
    const card = html.slice(html.indexOf(`data-chart="${shop.id}"`));
    expect(card).toMatch(/<caption>Response times of Shop, Last 24 hours<\/caption>/);
    expect(card).toMatch(/<tr data-series="Frankfurt"><th scope="row">Frankfurt<\/th><td>[\d.,]+ ms<\/td>/);
    expect(html).toMatch(/<title id="rc-[^"]+-24h-t">Response times of Shop, Last 24 hours<\/title>/);

    // API has no rollups: it says so; Website has no chart at all
    expect(chartOf(html, api.id, '24h')).toBe('empty');
    expect(html).toContain('No response times measured in this period yet.');
    expect(chartOf(html, web.id, '24h')).toBeNull();
  });

  it('keeps the charts with the snapshot: a check within the hour changes the rows, not the chart', async () => {
    const before = await page();
    const chart = (html: string) =>
      html.slice(html.indexOf('<section class="block rc"'), html.indexOf('</section>', html.indexOf('data-chart')));
    await t.services.db.k
      .updateTable('monitors')
      .set({ last_checked_at: clock, last_response_time_ms: 999.5 })
      .where('id', '=', shop.id)
      .execute();
    clock += 61_000;
    const after = await page();
    expect(after).toContain('999.50 ms');
    expect(chart(after)).toBe(chart(before));
  });

  it('shows no security panel until the company turns it on, and its preview to admins', async () => {
    expect(await page()).not.toContain('id="sec-title"');
    const read = await viewer.get('/api/v1/status-page/panels');
    expect(read.status, read.text).toBe(200);
    expect(read.body.security_panel).toBe(false);
    expect(read.body.preview.map((d: { hostname: string }) => d.hostname)).toEqual([
      'acme.example',
      'api.acme.example',
      'www.acme.example',
    ]);
    expect((await viewer.put('/api/v1/status-page/panels', { security_panel: true })).status).toBe(403);
    const bad = await admin.put('/api/v1/status-page/panels', { security_panel: 'yes' });
    expect(bad.status).toBe(400);
  });

  it('shows only verified domains, each with its date measured and latest results', async () => {
    const put = await admin.put('/api/v1/status-page/panels', { security_panel: true });
    expect(put.status, put.text).toBe(200);
    expect(put.body.security_panel).toBe(true);
    const www = put.body.preview.find((d: { hostname: string }) => d.hostname === 'www.acme.example');
    expect(www.tls).toMatchObject({ grade: 'A+', hsts: { present: true, max_age: 63072000, preload: true }, cert_days_left: 45 });
    const audit = await t.services.db.k.selectFrom('audit_events').selectAll().where('event', '=', 'settings_update').execute();
    expect(audit.some((a) => JSON.stringify(a.details).includes('status_page_security_panel'))).toBe(true);

    const html = await page();
    const panel = html.slice(html.indexOf('id="sec-title"'), html.indexOf('</section>', html.indexOf('id="sec-title"')));
    expect(panel).toContain('Security</h2>');
    const hosts = [...panel.matchAll(/data-domain="([^"]+)"/g)].map((m) => m[1]);
    expect(hosts).toEqual(['acme.example', 'api.acme.example', 'www.acme.example']);
    expect(html).not.toContain('staging.acme.example');
    expect(html).not.toContain('old.acme.example');
    expect(html).not.toContain('globex.example');

    const item = (name: string) =>
      panel.slice(panel.indexOf(`data-domain="${name}"`), panel.indexOf('</li>', panel.indexOf(`data-domain="${name}"`)));
    expect(item('www.acme.example')).toContain('Measured Nov 27, 2026');
    expect(item('www.acme.example')).toContain('<strong class="sec-grade">A+</strong>');
    expect(item('www.acme.example')).toContain('On, max-age 730 days, preload requested');
    expect(item('www.acme.example')).toMatch(/Certificate expires<\/dt><dd>Jan \d+, 2027 \(in 45 days\)/);
    expect(item('acme.example')).toContain('Measured Nov 28, 2026');
    expect(item('acme.example')).toMatch(/SPF<\/dt><dd>Pass</);
    expect(item('acme.example')).toMatch(/DMARC<\/dt><dd>Fail \(policy none\)</);
    expect(item('acme.example')).toContain('(in 200 days)');
    expect(item('api.acme.example')).toContain('Not measured yet');
  });

  it("never shows another company's domains on its page", async () => {
    const globexAdmin = new ApiClient(t.baseUrl, `${globex.subdomain}.${t.config.productDomain}`);
    await signIn(globexAdmin, await seedUser(t.services, { userType: 2, companyId: globex.id }));
    await seedMonitor(t.services.db, globex.id, clock, { name: 'Globex web' });
    expect((await globexAdmin.put('/api/v1/status-page/panels', { security_panel: true })).status).toBe(200);
    clock += 1500;
    const r = await t.client().get('/', { host: `${globex.subdomain}.${t.config.productDomain}` });
    expect(r.text).toContain('data-domain="globex.example"');
    expect(r.text).not.toContain('acme.example');
  });

  it('hides the panel again when turned off', async () => {
    expect((await admin.put('/api/v1/status-page/panels', { security_panel: false })).status).toBe(200);
    expect(await page()).not.toContain('id="sec-title"');
  });
});
