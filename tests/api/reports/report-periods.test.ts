// Issue 25 item 6: a company made minutes ago, with an outage and its automatic incident written
// through the engine's own result path, reads them in the SLA report. `period` names this month,
// the last 7 or 30 days (and the older last month, quarter, 12 months); `latest` picks the newest
// period holding the company's data, so the report opens on this month here, and on last month for
// a company whose checks stopped in October. JSON, CSV and PDF take the periods; schedules send
// complete periods only. Through the real HTTP server, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { monitorsRepo, newMonitorRow } from '../../../src/server/db/repositories/monitors-repo.ts';
import { writeBatch, type PendingResult } from '../../../src/server/engine/result-writer.ts';

const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 5, 12); // Thursday 5 November 2026, noon UTC

describe.each(DB_KINDS)('report periods on %s', (kind) => {
  let t: TestApp;
  let fresh: ApiClient;
  let stopped: ApiClient;

  /** A monitor made at `from` and checked every minute until `to`, down for the minutes `down` says. */
  async function checked(companyId: string, id: string, from: number, to: number, down: (at: number) => boolean) {
    const db = t.services.db;
    await monitorsRepo(db).insert(
      newMonitorRow({
        id,
        company_id: companyId,
        name: `Website ${kind}`,
        type: 'http',
        config: JSON.stringify({ url: 'http://127.0.0.1:9/' }),
        is_public: true,
        interval_seconds: 60,
        timeout_seconds: 5,
        confirmations: 1,
        next_due_at: NOW + 60 * MIN,
        created_at: from,
      }),
    );
    for (let at = from; at < to; at += MIN) {
      const isDown = down(at);
      const result: PendingResult = {
        monitorId: id,
        companyId,
        checkedAt: at,
        leaseOwner: null,
        outcome: {
          status: isDown ? 'down' : 'operational',
          responseTimeMs: isDown ? null : 90,
          httpCode: isDown ? 503 : 200,
          error: isDown ? 'HTTP 503' : null,
          timings: null,
          certExpiresAt: null,
        } as PendingResult['outcome'],
      };
      await writeBatch(db, [result], at, t.services.monitorIncidents!);
    }
  }

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => NOW });
    const newCo = await seedCompany(t.services, { name: 'Fresh Co' });
    const oldCo = await seedCompany(t.services, { name: 'Stopped Co' });
    fresh = new ApiClient(t.baseUrl, `${newCo.subdomain}.${t.config.productDomain}`);
    stopped = new ApiClient(t.baseUrl, `${oldCo.subdomain}.${t.config.productDomain}`);
    await signIn(fresh, await seedUser(t.services, { userType: 2, companyId: newCo.id }));
    await signIn(stopped, await seedUser(t.services, { userType: 2, companyId: oldCo.id }));
    // made 12 minutes ago; down from 8 to 5 minutes ago (an incident, resolved since)
    await checked(newCo.id, `m-fresh-${kind}`, NOW - 12 * MIN, NOW, (at) => at >= NOW - 8 * MIN && at < NOW - 5 * MIN);
    // checked for an hour on 20 October, then never again
    const oct20 = Date.UTC(2026, 9, 20, 9);
    await checked(oldCo.id, `m-stopped-${kind}`, oct20, oct20 + 60 * MIN, () => false);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('opens on this month for a company made minutes ago, with its incident and its downtime', async () => {
    const r = await fresh.get('/api/v1/reports/sla?period=latest');
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ period: 'this_month', from: '2026-11-01', to: '2026-11-05' });
    const line = r.body.monitors[0];
    expect(line.incident_count).toBe(1);
    expect(line.incidents[0]).toMatchObject({ title: `Website ${kind} is down`, duration_minutes: 3 });
    expect(line.downtime_minutes).toBe(3);
    expect(line.uptime_percent).toBeCloseTo(75, 5);
    // the old opening range, last month, holds nothing of it
    const october = await fresh.get('/api/v1/reports/sla?period=last_month');
    expect(october.body).toMatchObject({ period: 'last_month', from: '2026-10-01', to: '2026-10-31' });
    expect(october.body.monitors[0].uptime_percent).toBeNull();
  });

  it('names this month, the last 7 and 30 days and the older periods as whole UTC days', async () => {
    const periods: Array<[string, string, string]> = [
      ['this_month', '2026-11-01', '2026-11-05'],
      ['last_7_days', '2026-10-30', '2026-11-05'],
      ['last_30_days', '2026-10-07', '2026-11-05'],
      ['last_month', '2026-10-01', '2026-10-31'],
      ['last_quarter', '2026-07-01', '2026-09-30'],
      ['last_12_months', '2025-11-06', '2026-11-05'],
    ];
    for (const [period, from, to] of periods) {
      const r = await fresh.get(`/api/v1/reports/sla?period=${period}`);
      expect(r.status, `${period}: ${r.text}`).toBe(200);
      expect({ period: r.body.period, from: r.body.from, to: r.body.to }).toEqual({ period, from, to });
    }
    const seven = await fresh.get('/api/v1/reports/sla?period=last_7_days');
    expect(seven.body.total.incident_count).toBe(1);
    // a from-to range names no period
    expect((await fresh.get('/api/v1/reports/sla?from=2026-11-05&to=2026-11-05')).body.period).toBeNull();
  });

  it('opens on last month for a company whose checks stopped in October', async () => {
    const r = await stopped.get('/api/v1/reports/sla?period=latest');
    expect(r.body).toMatchObject({ period: 'last_month', from: '2026-10-01', to: '2026-10-31' });
    expect(r.body.monitors[0].uptime_percent).toBe(100);
  });

  it('gives CSV and PDF files of a named period', async () => {
    const csv = await fresh.get('/api/v1/reports/sla?period=last_7_days&format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain('sla-report-2026-10-30-2026-11-05.csv');
    expect(csv.text).toContain(`Website ${kind}`);
    const pdf = await fresh.get('/api/v1/reports/sla?period=latest&format=pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toContain('sla-report-2026-11-01-2026-11-05.pdf');
  });

  it('refuses a period with dates, an unknown period, and a schedule of a partial period', async () => {
    const both = await fresh.get('/api/v1/reports/sla?period=this_month&from=2026-11-01&to=2026-11-05');
    expect(both.status).toBe(400);
    expect(both.body.detail).toMatch(/either a period or from and to/);
    expect((await fresh.get('/api/v1/reports/sla?period=last_week')).status).toBe(400);
    expect((await fresh.get('/api/v1/reports/sla')).status).toBe(400);
    const schedule = await fresh.post('/api/v1/reports/schedules', {
      frequency: 'this_month',
      recipients: ['ops@fresh.example'],
      format: 'pdf',
    });
    expect(schedule.status).toBe(400);
  });
});
