// The console's monitor list (issue 13): GET /api/v1/monitors pages, filters, searches and sorts
// on the server, with X-Total-Count and each row's uptime and sparkline from the rollups. Seeded
// with 10,000 monitors across two companies on SQLite and PostgreSQL; every page is compared
// with the same query worked out in JavaScript from the seed.
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorsRepo } from '../../../src/server/db/repositories/monitors-repo.ts';
import { newId } from '../../../src/server/domain/ids.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { insertRollups } from '../../support/rollups.ts';

const HOUR = 3_600_000;
const STATUSES = ['operational', 'degraded', 'down', 'unknown'] as const;
const KINDS = ['http', 'tcp', 'dns', 'ssl'] as const;

interface Seeded {
  id: string;
  company_id: string;
  name: string;
  type: (typeof KINDS)[number];
  target: string;
  status: string;
  is_public: boolean;
  created_at: number;
  last_response_time: number | null;
}

describe.each(DB_KINDS)('monitor list query on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let viewer: ApiClient;
  let root: ApiClient;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  const now = Date.UTC(2026, 10, 24, 12, 30);
  const seeded: Seeded[] = [];
  const mine = () => seeded.filter((m) => m.company_id === acme.id);

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => now });
    acme = await seedCompany(t.services, { plan: 'enterprise', name: 'Acme' });
    globex = await seedCompany(t.services, { plan: 'enterprise', name: 'Globex' });
    const rows = [];
    for (let i = 0; i < 10_000; i++) {
      const company = i % 10 === 0 ? globex.id : acme.id;
      const type = KINDS[i % 4];
      const status = i % 7 === 0 ? 'paused' : STATUSES[i % 4];
      const host = `host${i}.svc${i % 13}.example.net`;
      const config =
        type === 'http'
          ? { url: `https://${host}/health`, headers: { Authorization: `needle-secret-${i}` } }
          : { host, port: 443, record_type: type === 'dns' ? 'A' : undefined };
      const m: Seeded = {
        id: newId(),
        company_id: company,
        name: `Service ${String(i).padStart(5, '0')}${i % 50 === 0 ? ' 100%_Off' : ''}`,
        type,
        target: host,
        status,
        is_public: i % 3 === 0,
        created_at: now - 10_000_000 + i * 1000,
        last_response_time: i % 5 === 0 ? null : (i * 37) % 900,
      };
      seeded.push(m);
      rows.push({
        id: m.id,
        company_id: company,
        name: m.name,
        type,
        config: JSON.stringify(config),
        is_public: m.is_public,
        is_paused: status === 'paused',
        interval_seconds: 60,
        timeout_seconds: 10,
        confirmations: 2,
        status: status === 'paused' ? 'operational' : status,
        status_since: null,
        pending_status: null,
        pending_count: 0,
        last_checked_at: m.last_response_time === null ? null : now - 60_000,
        last_response_time_ms: m.last_response_time,
        last_http_code: null,
        last_error: null,
        cert_expires_at: null,
        push_token_hash: null,
        last_push_at: null,
        // never due: the test app runs no engine, and this keeps the seed inert
        next_due_at: now + 365 * 24 * HOUR,
        lease_owner: null,
        lease_expires_at: null,
        last_answers: null,
        created_at: m.created_at,
        updated_at: m.created_at,
      } as const);
    }
    const k = t.services.db.k;
    for (let i = 0; i < rows.length; i += 500)
      await k
        .insertInto('monitors')
        .values(rows.slice(i, i + 500))
        .execute();
    const users = {
      admin: await seedUser(t.services, { userType: 2, companyId: acme.id }),
      viewer: await seedUser(t.services, { userType: 3, companyId: acme.id }),
      root: await seedUser(t.services, { userType: 1 }),
    };
    admin = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    viewer = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    root = t.client();
    await signIn(admin, users.admin);
    await signIn(viewer, users.viewer);
    await signIn(root, users.root);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const ids = (body: Array<{ id: string }>) => body.map((m) => m.id);

  it('answers the first page of 9,000 monitors newest first with the total, fast', async () => {
    const started = performance.now();
    const r = await admin.get('/api/v1/monitors?limit=50');
    const ms = performance.now() - started;
    expect(r.status).toBe(200);
    expect(r.headers.get('x-total-count')).toBe('9000');
    const expected = mine()
      .sort((a, b) => b.created_at - a.created_at)
      .slice(0, 50);
    expect(ids(r.body)).toEqual(expected.map((m) => m.id));
    console.log(`monitor list ${kind}: first page of 9,000 in ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(1000);
  });

  it('reads the first page of the default order off the created_at indexes, never sorting every monitor', async () => {
    // The repository's own SQL, caught as it is sent, then explained by the database itself.
    const sent: CompiledQuery[] = [];
    const db = t.services.db;
    const catching = db.k.withPlugin({
      transformQuery: ({ node, queryId }) => {
        sent.push(db.k.getExecutor().compileQuery(node, queryId));
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    // PostgreSQL plans from its statistics, which autovacuum gathers on a live database
    if (kind === 'postgres') await db.k.executeQuery(CompiledQuery.raw('analyze monitors'));
    const explain = async (companyId: string | null) => {
      sent.length = 0;
      await monitorsRepo({ kind: db.kind, k: catching }).page(companyId, { limit: 50, offset: 0, sort: 'created_at', order: 'desc' });
      const page = sent.find((q) => /\blimit\b/i.test(q.sql))!;
      const prefix = kind === 'sqlite' ? 'explain query plan ' : 'explain ';
      const r = await db.k.executeQuery(CompiledQuery.raw(prefix + page.sql, [...page.parameters]));
      return r.rows.map((row) => String(Object.values(row as object).at(-1))).join('\n');
    };
    // either created_at index serves a company's list (the planner picks by how many rows it holds)
    for (const scope of [acme.id, globex.id, null]) {
      const plan = await explain(scope);
      if (kind === 'sqlite') {
        expect(plan).toMatch(/USING INDEX monitors_(company_)?created_idx/);
        expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      } else {
        expect(plan).toMatch(/Index Scan Backward using monitors_(company_)?created_idx/);
        expect(plan).not.toMatch(/Seq Scan on monitors/);
      }
    }
  });

  it('filters by status, kind and public/private, and counts all pages', async () => {
    const expected = mine()
      .filter((m) => m.status === 'down' && m.type === 'ssl' && !m.is_public)
      .sort((a, b) => b.created_at - a.created_at);
    const r = await admin.get('/api/v1/monitors?status=down&type=ssl&is_public=false&limit=20&offset=20');
    expect(r.headers.get('x-total-count')).toBe(String(expected.length));
    expect(ids(r.body)).toEqual(expected.slice(20, 40).map((m) => m.id));
    const paused = await admin.get('/api/v1/monitors?status=paused&limit=5');
    expect(paused.headers.get('x-total-count')).toBe(String(mine().filter((m) => m.status === 'paused').length));
    expect(paused.body.every((m: { status: string; is_paused: boolean }) => m.status === 'paused' && m.is_paused)).toBe(true);
  });

  it('searches names and targets in any case, with % and _ taken literally, never header values', async () => {
    const byName = await admin.get('/api/v1/monitors?q=SERVICE%2001234');
    expect(byName.body.map((m: { name: string }) => m.name)).toEqual(['Service 01234']);
    const byHost = await admin.get('/api/v1/monitors?q=svc7.EXAMPLE&limit=200');
    const expectedHost = mine().filter((m) => m.target.includes('svc7.example'));
    expect(byHost.headers.get('x-total-count')).toBe(String(expectedHost.length));
    const literal = await admin.get(`/api/v1/monitors?q=${encodeURIComponent('100%_off')}&limit=200`);
    expect(literal.headers.get('x-total-count')).toBe(String(mine().filter((m) => m.name.endsWith('100%_Off')).length));
    const wildcard = await admin.get(`/api/v1/monitors?q=${encodeURIComponent('%')}`);
    expect(wildcard.headers.get('x-total-count')).toBe(String(mine().filter((m) => m.name.includes('%')).length));
    const secret = await viewer.get('/api/v1/monitors?q=needle-secret');
    expect(secret.headers.get('x-total-count')).toBe('0');
  });

  it('sorts by name and by last response time (never-checked last) across pages', async () => {
    const byName = mine().sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1));
    const page = await admin.get('/api/v1/monitors?sort=name&limit=100&offset=4000');
    expect(ids(page.body)).toEqual(byName.slice(4000, 4100).map((m) => m.id));
    const desc = await admin.get('/api/v1/monitors?sort=name&order=desc&limit=3');
    expect(ids(desc.body)).toEqual(
      byName
        .reverse()
        .slice(0, 3)
        .map((m) => m.id),
    );
    const byTime = mine().sort(
      (a, b) =>
        (a.last_response_time === null ? 1 : 0) - (b.last_response_time === null ? 1 : 0) ||
        (b.last_response_time ?? 0) - (a.last_response_time ?? 0) ||
        (a.id < b.id ? -1 : 1),
    );
    const slow = await admin.get('/api/v1/monitors?sort=last_response_time&order=desc&limit=200&offset=8000');
    expect(ids(slow.body)).toEqual(byTime.slice(8000, 8200).map((m) => m.id));
    expect(slow.body.at(-1).last_response_time).toBeNull();
  });

  it('gives the super admin every company with its name, or the chosen one', async () => {
    const all = await root.get('/api/v1/monitors?limit=1&sort=created_at&order=asc');
    expect(all.headers.get('x-total-count')).toBe('10000');
    expect(all.body[0]).toMatchObject({ name: 'Service 00000 100%_Off', tenant_name: 'Globex' });
    const chosen = await root.get(`/api/v1/monitors?tenant=${globex.id}&limit=1`);
    expect(chosen.headers.get('x-total-count')).toBe('1000');
    // a company user's tenant parameter is ignored
    expect((await admin.get(`/api/v1/monitors?tenant=${globex.id}&limit=1`)).headers.get('x-total-count')).toBe('9000');
  });

  it('carries 24 h and 30 d uptime and the 24 hourly average response times of the page', async () => {
    const m = mine()[1];
    const hour = Math.floor(now / HOUR) * HOUR;
    const k = t.services.db.k;
    const roll = (start: number, checks: number, failures: number, sum: number, timed: number) => ({
      monitor_id: m.id,
      company_id: m.company_id,
      checks,
      failures,
      degraded: 0,
      maintenance: 0,
      sum_response_ms: sum,
      min_response_ms: null,
      max_response_ms: null,
      response_sketch: timed ? `100*${timed}` : '', // `timed` responses in one sketch bucket
      p95_response_ms: null,
      last_status: null,
      last_http_code: null,
      last_checked_at: start,
    });
    await insertRollups(t.services.db, 'hourly', [
      { ...roll(hour, 4, 1, 300, 3), hour_start: hour },
      { ...roll(hour - 5 * HOUR, 2, 0, 50, 2), hour_start: hour - 5 * HOUR },
      // older than 24 hours: not in the sparkline
      { ...roll(hour - 30 * HOUR, 2, 2, 0, 0), hour_start: hour - 30 * HOUR },
    ]);
    const day = Math.floor(now / (24 * HOUR)) * 24 * HOUR;
    await insertRollups(t.services.db, 'daily', [
      { ...roll(day, 6, 1, 350, 5), day_start: day },
      { ...roll(day - 10 * 24 * HOUR, 4, 3, 0, 0), day_start: day - 10 * 24 * HOUR },
    ]);
    const r = await admin.get(`/api/v1/monitors?q=${encodeURIComponent(m.name)}`);
    const row = r.body[0];
    expect(row.uptime_24h).toBe(83.333);
    expect(row.uptime_30d).toBe(60);
    expect(row.sparkline).toHaveLength(24);
    expect(row.sparkline[23]).toBe(100);
    expect(row.sparkline[18]).toBe(25);
    expect(row.sparkline.filter((x: number | null) => x !== null)).toHaveLength(2);
    const other = (await admin.get('/api/v1/monitors?limit=1')).body[0];
    expect(other).toMatchObject({ uptime_24h: null, uptime_30d: null });
  });

  it('refuses pages over 200 and offsets past 1,000,000', async () => {
    expect((await admin.get('/api/v1/monitors?limit=201')).status).toBe(400);
    expect((await admin.get('/api/v1/monitors?offset=1000001')).status).toBe(400);
    expect((await admin.get('/api/v1/monitors?sort=config')).status).toBe(400);
  });
});
