// SLA report benchmark (issue 17 targets): a year's report for 1,000 monitors from daily rollups
// in <= 2 s, its PDF in <= 3 s, on SQLite and on PostgreSQL (a throwaway cluster). Seeds a
// company with 1,000 monitors, 365 daily rollups each (a latency sketch in every row), and
// a few incidents each; times buildSlaReport (the API's computation, without HTTP) and the PDF.
// Usage: npm run bench:reports [-- --monitors 1000 --days 365 --runs 3 --sqlite-only]
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDb, type Db } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { companiesRepo } from '../../src/server/db/repositories/companies-repo.ts';
import { newMonitorRow } from '../../src/server/db/repositories/monitors-repo.ts';
import { buildSlaReport } from '../../src/server/domain/reports/build.ts';
import { reportPdf } from '../../src/server/domain/reports/files.ts';
import { LatencySketch } from '../../src/lib/latency-sketch.ts';
import { createDatabase, startPgCluster } from '../../tests/support/pg-cluster.ts';
import { rollupsRepo, type RollupRecord } from '../../src/server/db/repositories/rollups-repo.ts';

const { values } = parseArgs({
  options: {
    monitors: { type: 'string', default: '1000' },
    days: { type: 'string', default: '365' },
    runs: { type: 'string', default: '3' },
    'sqlite-only': { type: 'boolean', default: false },
  },
});
const MONITORS = Number(values.monitors);
const DAYS = Number(values.days);
const RUNS = Number(values.runs);
const DAY = 86_400_000;
const FROM = Date.UTC(2025, 0, 1);
const TO = FROM + DAYS * DAY;
const NOW = TO + DAY;
const COMPANY = 'bench-company';

/** A deterministic pseudo-random sequence, so both databases hold the same data. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

async function seed(db: Db): Promise<void> {
  const now = FROM;
  await companiesRepo(db).insert({
    id: COMPANY,
    name: 'Bench Corp',
    email: 'ops@bench.example',
    subdomain: 'bench',
    slug: 'bench',
    created_at: now,
    updated_at: now,
  });
  const monitors = Array.from({ length: MONITORS }, (_, i) => ({
    ...newMonitorRow({
      id: `m${String(i).padStart(5, '0')}`,
      company_id: COMPANY,
      name: `Service ${i}`,
      type: 'http',
      config: '{}',
      is_public: true,
      interval_seconds: 60,
      timeout_seconds: 5,
      confirmations: 2,
      next_due_at: NOW,
      created_at: now,
    }),
    sla_target: i % 3 === 0 ? null : 99.9,
  }));
  for (let i = 0; i < monitors.length; i += 500)
    await db.k
      .insertInto('monitors')
      .values(monitors.slice(i, i + 500))
      .execute();
  const r = rng(42);
  let batch: RollupRecord[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await rollupsRepo(db).putMany('daily', batch);
    batch = [];
  };
  // Day by day, as the engine writes them (every monitor's row of a day, then the next day).
  for (let d = 0; d < DAYS; d++) {
    for (const m of monitors) {
      const failures = r() < 0.05 ? Math.floor(r() * 60) : 0;
      const maintenance = r() < 0.02 ? 120 : 0;
      const sketch = new LatencySketch();
      const ok = 1440 - failures;
      // a day's checks: 60 % at 60 ms, 30 % at 90 ms, the rest at 150 ms
      sketch.add(60, Math.floor(ok * 0.6));
      sketch.add(90, Math.floor(ok * 0.3));
      sketch.add(150, ok - Math.floor(ok * 0.6) - Math.floor(ok * 0.3));
      batch.push({
        monitor_id: m.id,
        company_id: COMPANY,
        start: FROM + d * DAY,
        checks: 1440,
        failures,
        degraded: 0,
        maintenance,
        sum_response_ms: ok * 80,
        min_response_ms: 40,
        max_response_ms: 180,
        response_sketch: sketch.serialize(),
        p95_response_ms: 200,
        last_status: 'operational',
        last_http_code: 200,
        last_checked_at: FROM + d * DAY + DAY - 30_000,
        phase_sums: null,
      });
      if (batch.length >= 500) await flush();
    }
  }
  await flush();
  // Five incidents a monitor over the year.
  const incidents: Array<Record<string, unknown>> = [];
  const links: Array<Record<string, unknown>> = [];
  for (const m of monitors)
    for (let n = 0; n < 5; n++) {
      const id = `${m.id}-i${n}`;
      const started = FROM + Math.floor(r() * (DAYS - 1)) * DAY + Math.floor(r() * DAY);
      incidents.push({
        id,
        company_id: COMPANY,
        monitor_id: null,
        title: `${m.name} is down`,
        severity: 'high',
        status: 'resolved',
        started_at: started,
        resolved_at: started + Math.floor(r() * 90) * 60_000 + 60_000,
        created_by: null,
        created_at: started,
        updated_at: started,
        postmortem: null,
        acknowledged_at: null,
        acknowledged_by: null,
        acknowledged_via: null,
      });
      links.push({ incident_id: id, monitor_id: m.id, company_id: COMPANY });
    }
  for (let i = 0; i < incidents.length; i += 500) {
    await db.k
      .insertInto('incidents')
      .values(incidents.slice(i, i + 500) as never)
      .execute();
    await db.k
      .insertInto('incident_monitors')
      .values(links.slice(i, i + 500) as never)
      .execute();
  }
}

interface Timing {
  report: number;
  pdf: number;
  /** CPU time of this process (user + system), which the other sessions on the machine do not inflate */
  reportCpu: number;
  pdfCpu: number;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

async function measure(label: string, db: Db): Promise<Timing> {
  const t0 = performance.now();
  await seed(db);
  console.log(`${label}: seeded ${MONITORS} monitors x ${DAYS} daily rollups in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const company = (await companiesRepo(db).findById(COMPANY))!;
  let best: Timing = { report: Infinity, pdf: Infinity, reportCpu: Infinity, pdfCpu: Infinity };
  for (let i = 0; i < RUNS; i++) {
    const a = performance.now();
    const ca = process.cpuUsage();
    const report = await buildSlaReport(db, company, { from: FROM, to: TO }, null, NOW);
    const reportCpu = cpuMs(ca);
    const b = performance.now();
    const cb = process.cpuUsage();
    const pdf = await reportPdf(report, { primaryColor: '#1f2937', logo: null });
    const pdfCpu = cpuMs(cb);
    const c = performance.now();
    if (i === 0)
      console.log(
        `${label}: ${report.monitors.length} monitors, company uptime ${report.total.uptime_percent} %, ${report.total.incident_count} incidents, PDF ${(pdf.length / 1024).toFixed(0)} KB`,
      );
    console.log(
      `${label}: run ${i + 1}: report ${(b - a).toFixed(0)} ms (CPU ${reportCpu.toFixed(0)} ms), PDF ${(c - b).toFixed(0)} ms (CPU ${pdfCpu.toFixed(0)} ms)`,
    );
    best = {
      report: Math.min(best.report, b - a),
      pdf: Math.min(best.pdf, c - b),
      reportCpu: Math.min(best.reportCpu, reportCpu),
      pdfCpu: Math.min(best.pdfCpu, pdfCpu),
    };
  }
  return best;
}

const results: Array<[string, Timing]> = [];
{
  const db = openDb({ kind: 'sqlite', file: path.join(mkdtempSync(path.join(os.tmpdir(), 'sw-bench-reports-')), 'db.sqlite') });
  try {
    await migrateToLatest(db);
    results.push(['SQLite', await measure('SQLite', db)]);
  } finally {
    await db.close();
  }
}
if (!values['sqlite-only']) {
  const cluster = process.env.BENCH_DATABASE_URL ? undefined : await startPgCluster();
  const url = process.env.BENCH_DATABASE_URL ?? (await createDatabase(cluster!.url, 'bench_reports'));
  const db = openDb({ kind: 'postgres', url });
  try {
    await migrateToLatest(db);
    results.push(['PostgreSQL', await measure('PostgreSQL', db)]);
  } finally {
    await db.close();
    cluster?.stop();
  }
}
console.log(
  `\nSLA report, ${MONITORS} monitors x ${DAYS} days (best of ${RUNS}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores):`,
);
for (const [name, r] of results) {
  const ms = (x: number) => x.toFixed(0).padStart(5);
  console.log(
    `  ${name.padEnd(10)} report ${ms(r.report)} ms (CPU ${ms(r.reportCpu)} ms; target <= 2000)   PDF ${ms(r.pdf)} ms (CPU ${ms(r.pdfCpu)} ms; target <= 3000)`,
  );
}
