// Daily domain checks of many domains (issue 16 target: daily SSL and domain checks of 1,000
// assets use ≤ 5 % of one core). Checks `count` verified domains once each, as the daily job
// does, against loopback DNS and RDAP servers in a child process, and measures this process's
// CPU (user + system): the checks themselves, their database writes, and the job's 288 runs a
// day that look for due domains. Answers the CPU a day and its share of one core.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { securityAssetsRepo } from '../../src/server/db/repositories/security-assets-repo.ts';
import { domainSettingsRepo } from '../../src/server/db/repositories/domain-settings-repo.ts';
import { seedCompany } from '../../tests/support/fixtures.ts';
import { servicesOn } from '../../tests/support/alert-services.ts';
import { dueDomains, runDomainCheck } from '../../src/server/domain/security/domain-check-run.ts';

const DAY_MS = 86_400_000;
const JOB_RUNS_PER_DAY = 288;
/** Checks in flight at once; the job itself runs them one after another */
const CONCURRENCY = 8;

export interface DomainBenchResult {
  domains: number;
  wallSeconds: number;
  cpuSecondsPerDay: number;
  /** share of one core over a day, in percent */
  corePercent: number;
  failedChecks: number;
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export async function benchDomains(count = 1000): Promise<DomainBenchResult> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'domain-fixtures.ts'), String(count)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  const { dns, rdap } = JSON.parse(first) as { dns: string; rdap: string };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-domains-'));
  const services = await servicesOn({ file: path.join(dir, 'db.sqlite') }, undefined, {
    DNS_RESOLVERS: dns,
    RDAP_BASE_URLS: `bench=${rdap}`,
  });
  try {
    const company = await seedCompany(services);
    const assets = securityAssetsRepo(services.db);
    const now = Date.now();
    for (let i = 0; i < count; i++) {
      const id = `d${i}`;
      for (const [assetId, hostname, kind] of [
        [id, `d${i}.bench`, 'domain'],
        [`h${i}`, `www.d${i}.bench`, 'host'],
      ] as const) {
        await assets.insert({
          id: assetId,
          company_id: company.id,
          hostname,
          kind,
          verification_token: `tok-${assetId}`,
          verification_method: 'dns',
          verified_at: now,
          last_verification_at: now,
          last_verification_error: null,
          created_at: now,
          updated_at: now,
        });
      }
      await domainSettingsRepo(services.db).put({
        asset_id: id,
        company_id: company.id,
        dkim_selectors: '["s1"]',
        watched_names: '[]',
        updated_at: now,
      });
    }

    const cpu0 = cpuMs();
    const t0 = performance.now();
    const due = await dueDomains(services, Date.now(), count);
    let next = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < due.length) {
          const id = due[next++];
          if (!(await runDomainCheck(services, id))) failed += 1;
        }
      }),
    );
    const checksCpu = cpuMs() - cpu0;
    const wallSeconds = (performance.now() - t0) / 1000;
    // The job's other 287 runs a day find nothing due: the cost of looking.
    const cpu1 = cpuMs();
    for (let i = 0; i < 10; i++) await dueDomains(services, Date.now(), 8);
    const lookCpu = ((cpuMs() - cpu1) / 10) * (JOB_RUNS_PER_DAY - 1);
    const rdapErrors = (await services.db.k.selectFrom('security_results').select('data').execute()).filter(
      (r) => JSON.parse(r.data).rdap_error !== null,
    ).length;
    const cpuPerDayMs = checksCpu + lookCpu;
    return {
      domains: due.length,
      wallSeconds,
      cpuSecondsPerDay: cpuPerDayMs / 1000,
      corePercent: (cpuPerDayMs / DAY_MS) * 100,
      failedChecks: failed + rdapErrors,
    };
  } finally {
    await services.db.close();
    child.kill();
  }
}
