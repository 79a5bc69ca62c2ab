// TLS part of the security benchmark (issue 16 target: daily SSL checks of 1,000 assets use
// ≤ 5 % of one core). 1,000 verified host assets of 10 companies, served by loopback HTTPS
// servers in a child process (tls-servers.ts), are analysed by the real daily job code
// (runDueTlsAnalyses: probe, grade, findings, storage, notifications) on SQLite until each has
// had its daily analysis; the CPU this process used, plus the job's 144 daily runs that find
// nothing due, is the day's cost, shown as % of one core over 24 h.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseConfig } from '../../src/server/config.ts';
import { openDb } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { securityAssetsRepo } from '../../src/server/db/repositories/security-assets-repo.ts';
import { securityFindingsRepo } from '../../src/server/db/repositories/security-findings-repo.ts';
import { runDueTlsAnalyses } from '../../src/server/domain/security/ssl-schedule.ts';
import { createServices } from '../../src/server/services.ts';
import { seedCompany } from '../../tests/support/fixtures.ts';

const DAY_MS = 86_400_000;
/** The job's period (jobs/tls-analysis.ts): runs a day */
const RUNS_PER_DAY = DAY_MS / 600_000;
export const TLS_TARGET_PERCENT = 5;

export interface TlsBenchResult {
  assets: number;
  analysed: number;
  wallSeconds: number;
  cpuSecondsAnalyses: number;
  cpuSecondsIdleRuns: number;
  percentOfCore: number;
  grades: Record<string, number>;
}

const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;

export async function runTlsBench(opts: { assets: number; servers: number }): Promise<TlsBenchResult> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'tls-servers.ts'), String(opts.servers)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const { ports, caPem } = await new Promise<{ ports: number[]; caPem: string }>((resolve) =>
    createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l))),
  );
  try {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-tls-'));
    const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: 'true' });
    const db = openDb({ kind: 'sqlite', file: path.join(dataDir, 'bench.db') });
    await migrateToLatest(db);
    let now = Date.now();
    const services = await createServices(config, { db, now: () => now });
    // Each asset's host name resolves to loopback; its port is one of the child's servers.
    const portOf = new Map<string, number>();
    services.monitoring = {
      extraCa: [caPem],
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      assetTlsPort: (h) => portOf.get(h),
    };
    const assets = securityAssetsRepo(db);
    const companies = await Promise.all(Array.from({ length: 10 }, () => seedCompany(services)));
    for (let i = 0; i < opts.assets; i++) {
      const id = `asset-${i}`;
      const hostname = `host${i}.localhost`;
      portOf.set(hostname, ports[i % ports.length]);
      await assets.insert({
        id,
        company_id: companies[i % companies.length].id,
        hostname,
        kind: 'host',
        verification_token: `t${i}`,
        verification_method: null,
        verified_at: null,
        last_verification_at: null,
        last_verification_error: null,
        created_at: now,
        updated_at: now,
      });
      await assets.markVerified(id, 'dns', now);
    }

    const started = performance.now();
    const cpu0 = process.cpuUsage();
    let analysed = 0;
    // Never analysed: all due at once; each run takes its bounded share, as the job would.
    for (let n = await runDueTlsAnalyses(services, now); n > 0; n = await runDueTlsAnalyses(services, now)) analysed += n;
    const cpuAnalyses = cpuSeconds(process.cpuUsage(cpu0));
    const wallSeconds = (performance.now() - started) / 1000;

    // A run when nothing is due (the other runs of the day): measured over 20, scaled to a day.
    now += 1000;
    const cpu1 = process.cpuUsage();
    for (let i = 0; i < 20; i++) await runDueTlsAnalyses(services, now);
    const cpuIdle = (cpuSeconds(process.cpuUsage(cpu1)) / 20) * RUNS_PER_DAY;

    const grades: Record<string, number> = {};
    for (const r of await securityFindingsRepo(db).listResults(null, 'ssl'))
      grades[r.grade ?? 'none'] = (grades[r.grade ?? 'none'] ?? 0) + 1;
    await db.close();
    return {
      assets: opts.assets,
      analysed,
      wallSeconds,
      cpuSecondsAnalyses: cpuAnalyses,
      cpuSecondsIdleRuns: cpuIdle,
      percentOfCore: ((cpuAnalyses + cpuIdle) / (DAY_MS / 1000)) * 100,
      grades,
    };
  } finally {
    child.stdin!.end();
  }
}
