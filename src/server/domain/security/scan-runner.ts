// Runs queued vulnerability scans (the vulnerability-scans job) and queues the weekly scan of
// every verified host. A scan is claimed with a lease, so two processes never run the same one
// and a crashed runner's scan is taken over when its lease passes. The host is read again when
// the scan starts: a host that lost its verification meanwhile is not contacted, nor one whose
// name now points outside the addresses its proof vouches for (bound-check.ts). The findings,
// the latest result (source 'scan') and the `security_report` notification are written in one
// transaction.
import type { Services } from '../context.ts';
import { parseServices } from '../company/present.ts';
import { newId } from '../ids.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { securityAssetsRepo, type SecurityAssetRow } from '../../db/repositories/security-assets-repo.ts';
import { securityFindingsRepo } from '../../db/repositories/security-findings-repo.ts';
import { securityScansRepo, type ScanCounts, type SecurityScanRow } from '../../db/repositories/security-scans-repo.ts';
import type { FindingSeverity } from '../../db/schema/security.ts';
import { withTransaction } from '../../db/scope.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import type { Resolver } from '../../net/dns-lookup.ts';
import { notifyIn } from '../../notify/notify.ts';
import { scannerUserAgent } from '../../security/scans/fetch.ts';
import { loadRetireRepository } from '../../security/scans/retire-repository.ts';
import { failureText, scanHost, type ScanOutcome } from '../../security/scans/scan.ts';
import { DEFAULT_SCAN_OPTIONS, type ScanEnv, type ScanFinding } from '../../security/scans/types.ts';
import { checkBoundAddresses } from './bound-check.ts';

/** Every verified host is scanned at least this often (the schedule queues one when its last scan is older). */
export const SCHEDULED_SCAN_EVERY_MS = 7 * 24 * 3_600_000;
/** Scans run at once by one job run (each on a different host) */
const CONCURRENT_SCANS = 4;
/** Scans taken by one job run; the rest wait for the next run */
const SCANS_PER_RUN = 8;
/** Longer than any scan's deadline: a lease that passes means its runner is gone */
const LEASE_MS = 10 * 60_000;

const SEVERITIES: FindingSeverity[] = ['critical', 'high', 'medium', 'low', 'info'];

export function countBySeverity(findings: Array<{ severity: FindingSeverity }>): ScanCounts {
  const counts: ScanCounts = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

/** Whether the company has the security services (company field services.security, on by default). */
export async function securityServiceOn(services: Services, companyId: string): Promise<boolean> {
  const company = await companiesRepo(services.db).findById(companyId);
  return company !== undefined && parseServices(company.services).security;
}

/** Queues a scheduled scan of each verified asset (host or domain) whose latest scan is a week old (or that has none), of companies with the security services. */
export async function scheduleWeeklyScans(services: Services, now: number): Promise<number> {
  const scans = securityScansRepo(services.db);
  const last = await scans.lastQueuedByAsset();
  let queued = 0;
  const securityOn = new Map<string, boolean>();
  for (const asset of await securityAssetsRepo(services.db).listVerified()) {
    const at = last.get(asset.id);
    if (at !== undefined && at > now - SCHEDULED_SCAN_EVERY_MS) continue;
    if (asset.renewal_reason !== null) continue; // nothing connects to it until its proof is renewed
    if (!securityOn.has(asset.company_id)) securityOn.set(asset.company_id, await securityServiceOn(services, asset.company_id));
    if (!securityOn.get(asset.company_id)) continue;
    try {
      await scans.queue({
        id: newId(),
        company_id: asset.company_id,
        asset_id: asset.id,
        trigger: 'scheduled',
        requested_by: null,
        at: now,
      });
      queued++;
    } catch (e) {
      if (!isUniqueViolation(e)) throw e; // a scan of it is already queued or running
    }
  }
  return queued;
}

/** One job period: queue the week's scans, then run what is queued. Answers a log line when it did something. */
export async function runDueScans(services: Services, now: number): Promise<string | undefined> {
  const queued = await scheduleWeeklyScans(services, now);
  const runnable = await securityScansRepo(services.db).runnable(now, SCANS_PER_RUN);
  let done = 0;
  let failed = 0;
  const queue = [...runnable];
  const worker = async () => {
    for (let scan = queue.shift(); scan; scan = queue.shift()) {
      const state = await runScan(services, scan);
      if (state === 'done') done++;
      else if (state === 'failed') failed++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_SCANS, queue.length) }, worker));
  if (queued + done + failed === 0) return undefined;
  return `${queued} scans scheduled, ${done} done, ${failed} failed`;
}

function scanEnv(services: Services, hostname: string, sslFindings: ScanFinding[], resolve: Resolver): ScanEnv {
  const { config } = services;
  const origins = config.scanWebPorts.map(({ scheme, port }) =>
    port === (scheme === 'https' ? 443 : 80) ? `${scheme}://${hostname}` : `${scheme}://${hostname}:${port}`,
  );
  return {
    allowPrivateTargets: config.allowPrivateTargets,
    resolve,
    options: {
      ...DEFAULT_SCAN_OPTIONS,
      ratePerSecond: config.scanRatePerSecond,
      origins,
      ports: config.scanServicePorts,
      ...services.scanOverrides,
    },
    retire: loadRetireRepository(config.retireRepositoryFile),
    sslFindings,
  };
}

/** Claims and runs one scan; answers how it ended, or null when another runner took it. */
export async function runScan(services: Services, scan: SecurityScanRow): Promise<'done' | 'failed' | null> {
  const scans = securityScansRepo(services.db);
  const startedAt = services.now();
  if (!(await scans.claim(scan, startedAt, LEASE_MS))) return null;
  const asset = await securityAssetsRepo(services.db).get(scan.company_id, scan.asset_id);
  if (!asset || asset.verified_at === null) {
    await scans.fail(scan.id, services.now(), 'The host is not verified: nothing was scanned');
    return 'failed';
  }
  const bound = await checkBoundAddresses(services, asset);
  if (!bound.ok) {
    await scans.fail(scan.id, services.now(), `Nothing was scanned. ${bound.reason}`);
    return 'failed';
  }
  const ssl = await securityFindingsRepo(services.db).list({
    companyId: asset.company_id,
    assetId: asset.id,
    source: 'ssl',
    status: 'open',
  });
  const sslFindings = ssl.map((f) => ({ key: f.key, severity: f.severity, cvss: f.cvss, title: f.title, evidence: f.evidence }));
  let outcome: ScanOutcome;
  try {
    outcome = await scanHost(
      asset.hostname,
      scanEnv(services, asset.hostname, sslFindings, bound.resolve),
      scannerUserAgent(services.config.productDomain),
    );
  } catch (e) {
    await scans.fail(scan.id, services.now(), failureText(e));
    return 'failed';
  }
  // A host that did not answer is not a host whose problems are fixed: its findings stay as they were.
  if (outcome.origin === null) {
    await scans.fail(scan.id, services.now(), outcome.notes.join('; ').slice(0, 500));
    return 'failed';
  }
  await recordScan(services, { ...scan, started_at: startedAt }, asset, outcome);
  return 'done';
}

async function recordScan(services: Services, scan: SecurityScanRow, asset: SecurityAssetRow, outcome: ScanOutcome): Promise<void> {
  const at = services.now();
  await withTransaction(services.db, async (tx) => {
    const change = await securityFindingsRepo(tx).record(asset, 'scan', outcome.findings, at);
    const seen = [...new Map(outcome.findings.map((f) => [f.key, f])).values()];
    const counts = countBySeverity(seen);
    await securityScansRepo(tx).finish(scan.id, at, counts, change.opened.length);
    await securityFindingsRepo(tx).saveResult({
      asset_id: asset.id,
      source: 'scan',
      company_id: asset.company_id,
      checked_at: at,
      grade: null,
      data: JSON.stringify({
        scan_id: scan.id,
        started_at: scan.started_at ?? at,
        finished_at: at,
        counts,
        new_findings: change.opened.length,
        fixed_findings: change.fixed.length,
        origin: outcome.origin,
        requests: outcome.requests,
        notes: outcome.notes,
      }),
    });
    const worst = SEVERITIES.find((s) => change.opened.some((f) => f.severity === s)) ?? 'info';
    const summary = SEVERITIES.map((s) => `${counts[s]} ${s}`).join(', ');
    await notifyIn(tx, at)(asset.company_id, {
      type: 'security_report',
      severity: worst,
      title: `Vulnerability scan of ${asset.hostname}: ${seen.length} findings, ${change.opened.length} new`,
      message: `Findings by severity: ${summary}. ${change.opened.length} new, ${change.fixed.length} fixed since the last scan.`,
      details: change.opened.length
        ? change.opened
            .map((f) => `[${f.severity}] ${f.title}`)
            .join('\n')
            .slice(0, 4000)
        : null,
      metadata: { scan_id: scan.id, asset_id: asset.id, hostname: asset.hostname, counts, new_findings: change.opened.length },
      actionUrl: `/vulnerability-scans?scan=${scan.id}`,
      dedupeKey: `scan:${scan.id}`,
    });
  });
}
