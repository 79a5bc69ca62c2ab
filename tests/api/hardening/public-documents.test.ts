// What the public documents (status page, feeds, badges, JSON) show, whatever the request and the
// stored data: links built from configuration (not from the Host of whoever asked first), text
// that XML forbids dropped, an Atom author, and never a check's raw error text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xml2js } from 'xml-js';
import { DB_KINDS } from '../../support/test-db.ts';
import { rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { seedIncident, seedMonitor, seedScriptedHistory, type SeededMonitor } from '../public/fixtures.ts';

const START = Date.UTC(2026, 10, 22, 14, 37, 12);
const XML_INVALID = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
const SECRET = 'SECRET-7f3a-connect ECONNREFUSED 10.9.8.7:5432 password=hunter2';

/** Well-formedness by a strict parser (xml-js: sax in strict mode), plus the characters XML 1.0 forbids (sax lets them through). */
function xmlProblems(text: string): string[] {
  const problems: string[] = [];
  const m = XML_INVALID.exec(text);
  if (m) problems.push(`invalid character U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m.index}`);
  try {
    xml2js(text);
  } catch (e) {
    problems.push((e as Error).message.split('\n')[0]);
  }
  return problems;
}

describe.each(DB_KINDS)('public documents on %s', (kind) => {
  let t: TestApp;
  let clock = START;
  let acme: { id: string; subdomain: string };
  let api: SeededMonitor;
  const tick = (ms = 1500) => (clock += ms);
  const get = (path: string, port: number | string, headers: Record<string, string> = {}) =>
    rawRequest(`${t.baseUrl}${path}`, 'GET', { host: `${acme.subdomain}.localhost:${port}`, ...headers });

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, withPages: true });
    acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: `docs${kind}` });
    api = await seedMonitor(t.services.db, acme.id, clock, { name: 'API', url: 'https://api.acme.example/health' });
    await seedScriptedHistory(t.services.db, api, clock);
    await seedIncident(t.services.db, acme.id, clock, {
      monitorId: api.id,
      title: 'API latency',
      updates: [{ status: 'investigating', message: 'Looking into it', at: clock - 60_000 }],
    });
  });
  afterAll(async () => t?.close());

  it("builds the Powered-by link and feed ids from configuration, not from the first visitor's Host", async () => {
    tick();
    const first = await get('/', 9999);
    const second = await get('/', t.port);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const poweredBy = (html: string) => /Powered by <a href="([^"]*)"/.exec(html)?.[1];
    // NODE_ENV=test and PORT unset: the configured main site is http://localhost:4321
    expect(poweredBy(first.text)).toBe('http://localhost:4321');
    expect(poweredBy(second.text)).toBe('http://localhost:4321');

    const tenant = `http://${acme.subdomain}.localhost:4321`;
    for (const [path, idRe] of [
      ['/history.atom', /<id>([^<]*)<\/id>/g],
      ['/history.rss', /<guid[^>]*>([^<]*)<\/guid>/g],
    ] as const) {
      const a = await get(path, 9999);
      const b = await get(path, t.port);
      const ids = (text: string) => [...text.matchAll(idRe)].map((x) => x[1]);
      expect(ids(a.text).length).toBeGreaterThan(0);
      expect(ids(a.text)).toEqual(ids(b.text));
      for (const id of ids(a.text)) expect(id.startsWith(`${tenant}/`), id).toBe(true);
      expect(a.text).not.toContain(':9999');
    }
    const summary = await get('/api/v2/summary.json', 9999);
    expect(JSON.parse(summary.text).page.url).toBe(tenant);
  });

  it('drops characters XML forbids from feeds and badges (data written straight to the database)', async () => {
    const ctl = await seedMonitor(t.services.db, acme.id, clock, { name: 'Pay\u0001ments\u001b' });
    await seedIncident(t.services.db, acme.id, clock, {
      monitorId: ctl.id,
      title: 'Card\u0001 errors\u000b',
      updates: [{ status: 'identified', message: 'Bad\u0008 gateway\uFFFF', at: clock }],
    });
    await t.services.db.k.updateTable('companies').set({ name: 'Acme\u0002 Corp', updated_at: clock }).where('id', '=', acme.id).execute();
    tick();
    for (const path of ['/history.rss', '/history.atom', '/feed.rss', '/feed.atom']) {
      const r = await get(path, t.port);
      expect(r.status).toBe(200);
      expect(xmlProblems(r.text), path).toEqual([]);
      expect(r.text).toContain('Card errors');
      expect(r.text).toContain('Bad gateway');
    }
    for (const path of [`/badges/${ctl.id}/status.svg`, '/badges/status.svg']) {
      const svg = await get(path, t.port);
      expect(svg.status).toBe(200);
      expect(xmlProblems(svg.text), path).toEqual([]);
      expect(Number(/^<svg[^>]* width="([\d.]+)"/.exec(svg.text)?.[1])).toBeGreaterThan(0);
    }
    expect((await get(`/badges/${ctl.id}/status.svg`, t.port)).text).toContain('Payments');
    // shields.io draws the endpoint JSON as SVG: the same characters are dropped there
    expect(JSON.parse((await get(`/badges/${ctl.id}/status.json`, t.port)).text).label).toBe('Payments');
    await t.services.db.k.updateTable('companies').set({ name: 'Acme Corp', updated_at: clock }).where('id', '=', acme.id).execute();
  });

  it('gives the Atom feed an author: the company', async () => {
    tick();
    const atom = await get('/history.atom', t.port);
    expect(atom.status).toBe(200);
    const feedHead = atom.text.slice(0, atom.text.indexOf('<entry>'));
    expect(feedHead).toMatch(/<author>\s*<name>Acme Corp<\/name>/);
  });

  it("never shows a check's raw error text on any public document", async () => {
    // what the engine writes when a monitor goes down: the checker's error as the first update
    const web = await seedMonitor(t.services.db, acme.id, clock, { name: 'Website', status: 'down' });
    await seedIncident(t.services.db, acme.id, clock, {
      monitorId: web.id,
      title: 'Website is down',
      status: 'open',
      updates: [
        { status: 'open', message: SECRET, at: clock - 1000, by: null },
        { status: 'identified', message: 'A bad deploy; rolling back.', at: clock },
      ],
    });
    await t.services.db.k
      .updateTable('monitors')
      .set({ last_error: SECRET, status: 'down', updated_at: clock })
      .where('id', '=', api.id)
      .execute();
    await t.services.db.k
      .insertInto('check_results')
      .values({
        monitor_id: api.id,
        checked_at: clock,
        company_id: acme.id,
        status: 'down',
        response_time_ms: null,
        http_code: null,
        error: SECRET,
        timings: null,
        cert_expires_at: null,
      })
      .execute();
    tick();
    const paths = [
      '/',
      '/history.rss',
      '/history.atom',
      '/badges/status.svg',
      `/badges/${api.id}/status.svg`,
      `/badges/${api.id}/status.json`,
      `/api/v1/public/public-status/${acme.subdomain}`,
      '/api/v2/summary.json',
      '/api/v2/status.json',
      '/api/v2/components.json',
      '/api/v2/incidents.json',
      '/api/v2/incidents/unresolved.json',
      '/api/v2/scheduled-maintenances.json',
    ];
    for (const path of paths) {
      const r = await get(path, t.port);
      expect(r.status, path).toBe(200);
      expect(r.text, path).not.toContain('SECRET-7f3a');
      expect(r.text, path).not.toContain('ECONNREFUSED');
      expect(r.text, path).not.toContain('10.9.8.7');
    }
    // the page did pick up the failure; the engine's update reads as a neutral sentence, the admin's as written
    const page = (await get('/', t.port)).text;
    expect(page).toContain('Down');
    expect(page).toContain('Not responding as expected.');
    expect(page).toContain('A bad deploy; rolling back.');
    const summary = JSON.parse((await get('/api/v2/summary.json', t.port)).text);
    const incident = summary.incidents.find((i: { name: string }) => i.name === 'Website is down');
    expect(incident.incident_updates.map((u: { body: string }) => u.body)).toEqual([
      'A bad deploy; rolling back.',
      'Not responding as expected.',
    ]);
  });
});
