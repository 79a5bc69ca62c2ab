// Issue 25 item 7: a monitor made minutes ago is drawn densely from its first checks. Its list
// row's sparkline holds its latest checks one by one (sparkline_unit check) instead of 24 hourly
// averages with one value, and its response times read per check (range checks); a monitor with
// a day of history keeps the hourly line. Checks are written through the engine's own result
// path (raw results, compaction-ready rows, rollups), through the real HTTP server on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { monitorsRepo, newMonitorRow } from '../../../src/server/db/repositories/monitors-repo.ts';
import { writeBatch, type PendingResult } from '../../../src/server/engine/result-writer.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const NOW = Date.UTC(2026, 10, 5, 12, 30);

describe.each(DB_KINDS)("a young monitor's history on %s", (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  const young = `m-young-${kind}`;
  const old = `m-old-${kind}`;

  async function monitorWithChecks(companyId: string, id: string, name: string, created: number, checks: number[]) {
    const db = t.services.db;
    await monitorsRepo(db).insert(
      newMonitorRow({
        id,
        company_id: companyId,
        name,
        type: 'http',
        config: JSON.stringify({ url: 'http://127.0.0.1:9/' }),
        is_public: false,
        interval_seconds: 60,
        timeout_seconds: 5,
        confirmations: 1,
        next_due_at: NOW + HOUR,
        created_at: created,
      }),
    );
    for (const [i, at] of checks.entries()) {
      const down = i === 3;
      const result: PendingResult = {
        monitorId: id,
        companyId,
        checkedAt: at,
        leaseOwner: null,
        outcome: {
          status: down ? 'down' : 'operational',
          responseTimeMs: down ? null : 100 + i * 10,
          httpCode: down ? 503 : 200,
          error: down ? 'HTTP 503' : null,
          timings: null,
          certExpiresAt: null,
        } as PendingResult['outcome'],
      };
      await writeBatch(db, [result], at, t.services.monitorIncidents!);
    }
  }

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => NOW });
    const acme = await seedCompany(t.services, { name: 'Acme' });
    admin = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    // made 9 minutes ago, checked every minute since: 8 checks, the fourth one failed
    await monitorWithChecks(
      acme.id,
      young,
      'New website',
      NOW - 9 * MIN,
      Array.from({ length: 8 }, (_, i) => NOW - 8 * MIN + i * MIN),
    );
    // made two days ago, checked once an hour for the last day
    await monitorWithChecks(
      acme.id,
      old,
      'Old website',
      NOW - 48 * HOUR,
      Array.from({ length: 24 }, (_, i) => NOW - 23 * HOUR - 20 * MIN + i * HOUR),
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("draws a young monitor's sparkline from its latest checks, an older one's per hour", async () => {
    const r = await admin.get('/api/v1/monitors');
    expect(r.status, r.text).toBe(200);
    const row = (id: string) =>
      (r.body as Array<{ id: string; sparkline: Array<number | null>; sparkline_unit: string }>).find((m) => m.id === id)!;
    expect(row(young).sparkline_unit).toBe('check');
    expect(row(young).sparkline).toEqual([100, 110, 120, null, 140, 150, 160, 170]);
    expect(row(old).sparkline_unit).toBe('hour');
    expect(row(old).sparkline).toHaveLength(24);
    expect(row(old).sparkline.filter((v) => v !== null).length).toBeGreaterThanOrEqual(20);
  });

  it("reads a young monitor's response times per check", async () => {
    const r = await admin.get(`/api/v1/monitors/${young}/response-times?range=checks`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ range: 'checks', grain: 'check' });
    expect(r.body.points.map((p: { avg: number | null }) => p.avg)).toEqual([100, 110, 120, null, 140, 150, 160, 170]);
    expect(r.body.points[0].start).toBe(new Date(NOW - 8 * MIN).toISOString());
    expect(r.body.points[3]).toMatchObject({ checks: 1, failures: 1, last_http_code: 503 });
    expect(r.body.summary.timed).toBe(7);
    expect(r.body.summary.avg).toBeCloseTo(950 / 7, 1);
    // the hourly range of the same monitor is the lone value the console used to open on
    const hourly = await admin.get(`/api/v1/monitors/${young}/response-times?range=24h`);
    expect(hourly.body.points.filter((p: { avg: number | null }) => p.avg !== null)).toHaveLength(1);
    expect((await admin.get(`/api/v1/monitors/${young}/response-times?range=last`)).status).toBe(400);
  });
});
