// A full vulnerability scan of one loopback host at the product's default politeness (5
// requests a second to the host): the careless fixture host (headers, cookies, 13 sensitive
// paths after a soft-404 probe, its scripts) and all 12 risky services (Redis answered by a
// listener, the others on closed ports), through the job's runner on SQLite (findings,
// result and security_report written). Prints the time against the target (≤ 60 s) and the
// busiest second the host saw against the rate.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../src/server/config.ts';
import { openDb } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { securityAssetsRepo } from '../../src/server/db/repositories/security-assets-repo.ts';
import { securityScansRepo } from '../../src/server/db/repositories/security-scans-repo.ts';
import { runDueScans } from '../../src/server/domain/security/scan-runner.ts';
import { RISKY_SERVICES } from '../../src/lib/risky-services.ts';
import { createServices } from '../../src/server/services.ts';
import { closedPort, startCarelessHost, startTcpListener } from '../../tests/fixtures/targets/vuln-hosts.ts';
import { seedCompany } from '../../tests/support/fixtures.ts';

export async function benchScan(): Promise<{ seconds: number; requests: number; busiestSecond: number; rate: number }> {
  const host = await startCarelessHost();
  const redis = await startTcpListener();
  const ports: Record<string, number> = {};
  for (const name of Object.keys(RISKY_SERVICES)) ports[name] = name === 'redis' ? redis.port : await closedPort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-scan-'));
  const db = openDb({ kind: 'sqlite', file: path.join(dir, 'db.sqlite') });
  try {
    await migrateToLatest(db);
    const config = parseConfig({
      NODE_ENV: 'test',
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      ALLOW_PRIVATE_TARGETS: 'true',
      SCAN_WEB_PORTS: `http:${host.port}`,
      SCAN_SERVICE_PORTS: Object.entries(ports)
        .map(([k, v]) => `${k}:${v}`)
        .join(','),
    });
    const services = await createServices(config, { db });
    const company = await seedCompany(services);
    const assets = securityAssetsRepo(db);
    await assets.insert({
      id: 'bench-host',
      company_id: company.id,
      hostname: 'localhost',
      kind: 'host',
      verification_token: 'bench',
      verification_method: null,
      verified_at: null,
      last_verification_at: null,
      last_verification_error: null,
      created_at: Date.now(),
      updated_at: Date.now(),
    });
    await assets.markVerified('bench-host', 'file', Date.now());
    const t0 = performance.now();
    await runDueScans(services, Date.now()); // queues the host's weekly scan and runs it
    const seconds = (performance.now() - t0) / 1000;
    const [scan] = await securityScansRepo(db).list({ companyId: null, limit: 1 });
    if (scan?.state !== 'done') throw new Error(`the scan did not finish: ${scan?.state} ${scan?.error}`);
    const times = host.requests.map((r) => r.at);
    const busiestSecond = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 1000).length));
    return { seconds, requests: host.requests.length + Object.keys(ports).length, busiestSecond, rate: config.scanRatePerSecond };
  } finally {
    await db.close();
    await host.close();
    await redis.close();
  }
}

if (import.meta.main) {
  const r = await benchScan();
  console.log(`full scan of one loopback host: ${r.seconds.toFixed(1)} s (target ≤ 60 s), ${r.requests} requests (HTTP + TCP)`);
  console.log(`busiest second at the host: ${r.busiestSecond} HTTP requests (politeness limit ${r.rate}/s)`);
}
