// The SLA report against a scripted ground truth: a month (October 2026) of one-minute checks of
// a monitor with a 99.9 % target, written through the engine's own result path (writeBatch:
// raw results, hourly and daily rollups, state machine, automatic incidents), with known
// outages, one of them inside a maintenance window and one running past the month's end. The
// JSON, the CSV and the PDF (its text extracted) carry the same numbers, equal to the ground
// truth to 0.01 percentage points.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { monitorsRepo, newMonitorRow } from '../../../src/server/db/repositories/monitors-repo.ts';
import { maintenanceRepo } from '../../../src/server/db/repositories/maintenance-repo.ts';
import { writeBatch, type PendingResult } from '../../../src/server/engine/result-writer.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const MONTH_START = Date.UTC(2026, 9, 1);
const MONTH_END = Date.UTC(2026, 10, 1);
const NOW = Date.UTC(2026, 10, 5, 12);

/** Minute m of the script is checked at its 30th second. */
const at = (day: number, h: number, m: number) => Date.UTC(2026, 9, day, h, m, 30);
// Outages as [first down check, minutes down].
const OUTAGES: Array<[number, number]> = [
  [at(3, 10, 0), 45],
  [at(12, 2, 0), 120], // inside the maintenance window below: not downtime, no incident
  [at(20, 14, 0), 30],
  [at(31, 23, 30), 60], // 30 minutes in October, 30 in November
];
const MAINTENANCE = { startsAt: Date.UTC(2026, 9, 12, 1), endsAt: Date.UTC(2026, 9, 12, 5) };
const DEGRADED = { from: at(25, 8, 0), to: at(25, 9, 0) };

function statusAt(t: number): 'operational' | 'degraded' | 'down' {
  if (OUTAGES.some(([s, n]) => t >= s && t < s + n * MIN)) return 'down';
  if (t >= DEGRADED.from && t < DEGRADED.to) return 'degraded';
  return 'operational';
}

/** The truth, counted minute by minute from the script, not from any rollup. */
function groundTruth() {
  let measured = 0;
  let down = 0;
  let maintenance = 0;
  for (let t = MONTH_START + 30_000; t < MONTH_END; t += MIN) {
    if (t >= MAINTENANCE.startsAt && t < MAINTENANCE.endsAt) {
      maintenance++;
      continue;
    }
    measured++;
    if (statusAt(t) === 'down') down++;
  }
  const uptime = ((measured - down) / measured) * 100;
  const budget = measured * 0.001;
  return { measured, down, maintenance, uptime, budget };
}

describe.each(DB_KINDS)('SLA report ground truth on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let host: { host: string };
  const monitorId = `m-truth-${kind}`;

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => NOW });
    const company = await seedCompany(t.services, { name: '=Acme, "Ops"' });
    host = { host: `${company.subdomain}.localhost` };
    const user = await seedUser(t.services, { userType: 2, companyId: company.id });
    admin = t.client();
    await signIn(admin, user, host.host);
    const db = t.services.db;
    await monitorsRepo(db).insert({
      ...newMonitorRow({
        id: monitorId,
        company_id: company.id,
        name: 'Checkout API',
        type: 'http',
        config: JSON.stringify({ url: 'http://127.0.0.1:9/' }),
        is_public: true,
        interval_seconds: 60,
        timeout_seconds: 5,
        confirmations: 1,
        next_due_at: NOW + HOUR,
        created_at: MONTH_START - HOUR,
      }),
      sla_target: 99.9,
    });
    await maintenanceRepo(db).insert(
      {
        id: `w-${kind}`,
        company_id: company.id,
        monitor_id: monitorId,
        title: 'Database upgrade',
        description: null,
        starts_at: MAINTENANCE.startsAt,
        ends_at: MAINTENANCE.endsAt,
        created_at: MONTH_START,
        recurrence: null,
        cancelled_at: null,
        updated_at: null,
      },
      [monitorId],
    );
    // One batch per hour of checks (written at the hour's last check, as the engine writes a
    // batch just after its checks), through November 1st 02:00 so the last outage ends.
    for (let hour = MONTH_START; hour < MONTH_END + 2 * HOUR; hour += HOUR) {
      const batch: PendingResult[] = [];
      for (let m = 0; m < 60; m++) {
        const checkedAt = hour + m * MIN + 30_000;
        const status = statusAt(checkedAt);
        batch.push({
          monitorId,
          companyId: company.id,
          checkedAt,
          leaseOwner: null,
          outcome: {
            status,
            responseTimeMs: status === 'down' ? null : status === 'degraded' ? 1800 : 80 + (m % 7) * 10,
            httpCode: status === 'down' ? 503 : 200,
            error: status === 'down' ? 'HTTP 503' : null,
            timings: null,
            certExpiresAt: null,
          } as PendingResult['outcome'],
        });
      }
      await writeBatch(db, batch, hour + 59 * MIN + 30_000, t.services.monitorIncidents!);
    }
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  const query = (format: string) => `/api/v1/reports/sla?from=2026-10-01&to=2026-10-31&format=${format}`;

  it('JSON: uptime, downtime, maintenance, incidents, MTTR, budget equal the ground truth', async () => {
    const truth = groundTruth();
    const r = await admin.get(query('json'), host);
    expect(r.status).toBe(200);
    const line = r.body.monitors.find((m: { monitor_id: string }) => m.monitor_id === monitorId);
    expect(Math.abs(line.uptime_percent - truth.uptime)).toBeLessThanOrEqual(0.01);
    expect(line.downtime_minutes).toBe(truth.down); // 45 + 30 + 30
    expect(truth.down).toBe(105);
    expect(line.maintenance_minutes).toBe(truth.maintenance);
    expect(line.measured_minutes).toBe(truth.measured);
    // The outage inside maintenance opened no incident. An incident runs from its first down
    // check to the first good one; the last is cut at the month's end (23:30:30 to midnight).
    expect(line.incidents.map((i: { duration_minutes: number }) => i.duration_minutes)).toEqual([45, 30, 29.5]);
    expect(line.incident_count).toBe(3);
    expect(line.mttr_minutes).toBe(34.83);
    expect(line.mtbf_minutes).toBeCloseTo((truth.measured - truth.down) / 3, 2);
    expect(line.sla_target).toBe(99.9);
    expect(line.sla_met).toBe(false);
    expect(line.budget_minutes).toBeCloseTo(truth.budget, 2);
    expect(line.budget_left_minutes).toBe(0);
    expect(line.budget_used_percent).toBeCloseTo((truth.down / truth.budget) * 100, 2);
    // Exact p50 is 110 ms and p95 140 ms; the rollups' latency sketch answers within 2 %.
    expect(Math.abs(line.p50_ms - 110) / 110).toBeLessThan(0.02);
    expect(Math.abs(line.p95_ms - 140) / 140).toBeLessThan(0.02);
    expect(r.body.total.uptime_percent).toBe(line.uptime_percent);
    expect(r.body.total.sla_met).toBe(false);
  });

  it('CSV and PDF carry the same numbers as the JSON, and both downloads are audited', async () => {
    const json = (await admin.get(query('json'), host)).body;
    const line = json.monitors.find((m: { monitor_id: string }) => m.monitor_id === monitorId);
    const csv = await admin.get(query('csv'), host);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="sla-report-2026-10-01-2026-10-31.csv"');
    const rows = csv.text.trimEnd().split('\r\n');
    const header = rows[0].split(',');
    const cells = rows.find((r) => r.startsWith(monitorId))!.split(',');
    const col = (name: string) => cells[header.indexOf(name)];
    expect(Number(col('uptime_percent'))).toBe(line.uptime_percent);
    expect(Number(col('downtime_minutes'))).toBe(line.downtime_minutes);
    expect(Number(col('maintenance_minutes'))).toBe(line.maintenance_minutes);
    expect(Number(col('incidents'))).toBe(3);
    expect(Number(col('mttr_minutes'))).toBe(line.mttr_minutes);
    expect(col('sla_met')).toBe('false');
    // The company name starts with '=': quoted and defused in the total row.
    expect(rows.at(-1)).toContain(`"'=Acme, ""Ops"" (total)"`);

    const pdf = await admin.get(query('pdf'), host);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const doc = await getDocumentProxy(new Uint8Array(pdf.bytes));
    const { text } = await extractText(doc, { mergePages: true });
    expect(text).toContain('=Acme, "Ops"');
    expect(text).toContain('SLA report 2026-10-01 to 2026-10-31');
    for (const v of [line.uptime_percent, line.downtime_minutes, line.maintenance_minutes, line.mttr_minutes, line.budget_used_percent])
      expect(text).toContain(String(v));
    expect(text).toContain('missed');

    const audit = await t.services.db.k.selectFrom('audit_events').selectAll().where('event', '=', 'data_export').execute();
    expect(audit.map((a) => JSON.parse(a.details!).format).sort()).toEqual(['csv', 'pdf']);
  });
});
