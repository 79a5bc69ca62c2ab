// Vulnerability scans as the console and the API see them: "Scan now" on a verified asset
// (recorded as `security_scan_trigger`), the scan list with each asset's latest scan (viewing
// it records `vulnerability_view`), and one scan with its asset's findings. Company admins
// view and start scans; viewers view; nothing else is done to a host from here (the job runs
// what is queued, scan-runner.ts).
import type { Ctx } from '../context.ts';
import { companyScope, requirePermission } from '../authz.ts';
import { auditFromCtx } from '../audit/record.ts';
import { withTransaction } from '../../db/scope.ts';
import { DomainError, notFound } from '../errors.ts';
import { flagOn } from '../flags/flags.ts';
import { newId, toIso, toIsoOrNull } from '../ids.ts';
import { securityServiceOn } from './scan-runner.ts';
import { securityAssetsRepo } from '../../db/repositories/security-assets-repo.ts';
import { securityFindingsRepo, type SecurityFindingRow } from '../../db/repositories/security-findings-repo.ts';
import { securityScansRepo, type SecurityScanRow } from '../../db/repositories/security-scans-repo.ts';
import type { ScanState, ScanTrigger } from '../../db/schema/security-scans.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';

export const SCANS_NOT_AVAILABLE = 'Vulnerability scans are not available.';
export const NOT_VERIFIED =
  'This host is not verified: prove that your company controls it (DNS TXT record or /.well-known file) before it can be scanned.';
export const SECURITY_OFF = "The company's security services are switched off (company services: security).";
export const RENEWAL_NEEDED = (reason: string) => `The proof of control of this host needs renewing: ${reason}`;
export const ALREADY_SCANNING = 'A scan of this host is already queued or running; wait for it to finish.';

export function presentScan(s: SecurityScanRow, hostname: string | null) {
  return {
    id: s.id,
    asset_id: s.asset_id,
    hostname,
    company_id: s.company_id,
    trigger: s.trigger,
    requested_by: s.requested_by,
    state: s.state,
    queued_at: toIso(s.queued_at),
    started_at: toIsoOrNull(s.started_at),
    finished_at: toIsoOrNull(s.finished_at),
    counts: { critical: s.critical, high: s.high, medium: s.medium, low: s.low, info: s.info },
    new_findings: s.new_findings,
    error: s.error,
  };
}
export type ScanView = ReturnType<typeof presentScan>;

function presentFinding(f: SecurityFindingRow) {
  return {
    id: f.id,
    key: f.key,
    severity: f.severity,
    cvss: f.cvss,
    title: f.title,
    evidence: f.evidence,
    first_seen_at: toIso(f.first_seen_at),
    last_seen_at: toIso(f.last_seen_at),
    status: f.status,
    status_reason: f.status_reason,
  };
}

async function requireScansOn(ctx: Ctx): Promise<void> {
  if (!(await flagOn(ctx.services, 'ENABLE_VULNERABILITY_SCANS'))) throw new DomainError('not_found', SCANS_NOT_AVAILABLE);
}

export async function triggerScan(ctx: Ctx, body: { asset_id: string }): Promise<ScanView> {
  const actor = requirePermission(ctx, 'create', 'vulnerability_scans', 'start vulnerability scans');
  await requireScansOn(ctx);
  const asset = await securityAssetsRepo(ctx.services.db).get(companyScope(ctx), body.asset_id);
  if (!asset) throw notFound('Asset');
  if (asset.verified_at === null) throw new DomainError('conflict', NOT_VERIFIED);
  if (asset.renewal_reason !== null) throw new DomainError('conflict', RENEWAL_NEEDED(asset.renewal_reason));
  if (!(await securityServiceOn(ctx.services, asset.company_id))) throw new DomainError('conflict', SECURITY_OFF);
  let scan: SecurityScanRow;
  try {
    // The queued scan and its audit row commit together.
    scan = await withTransaction(ctx.services.db, async (tx) => {
      const queued = await securityScansRepo(tx).queue({
        id: newId(),
        company_id: asset.company_id,
        asset_id: asset.id,
        trigger: 'on_demand',
        requested_by: actor.userId,
        at: ctx.services.now(),
      });
      await auditFromCtx(
        tx,
        ctx,
        'security_scan_trigger',
        { asset_id: asset.id, hostname: asset.hostname, scan_id: queued.id },
        undefined,
        asset.company_id,
      );
      return queued;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new DomainError('conflict', ALREADY_SCANNING);
    throw e;
  }
  return presentScan(scan, asset.hostname);
}

export interface ScanListQuery {
  asset_id?: string;
  state?: ScanState;
  trigger?: ScanTrigger;
  limit?: number;
  tenant?: string;
}

export async function listScans(ctx: Ctx, q: ScanListQuery) {
  requirePermission(ctx, 'view', 'vulnerability_scans');
  await requireScansOn(ctx);
  const companyId = companyScope(ctx, q.tenant);
  const db = ctx.services.db;
  const assets = await securityAssetsRepo(db).list(companyId);
  const hostOf = new Map(assets.map((a) => [a.id, a.hostname]));
  const scans = await securityScansRepo(db).list({
    companyId,
    assetId: q.asset_id,
    state: q.state,
    trigger: q.trigger,
    limit: q.limit ?? 50,
  });
  // Each asset's latest scan, whatever the filters.
  const latest = await securityScansRepo(db).latestByAsset(companyId);
  await auditFromCtx(db, ctx, 'vulnerability_view', { asset_id: q.asset_id ?? null });
  return {
    assets: assets.map((a) => ({
      id: a.id,
      hostname: a.hostname,
      kind: a.kind,
      company_id: a.company_id,
      verified: a.verified_at !== null,
      last_scan: latest.has(a.id) ? presentScan(latest.get(a.id)!, a.hostname) : null,
    })),
    scans: scans.map((s) => presentScan(s, hostOf.get(s.asset_id) ?? null)),
  };
}

export async function getScan(ctx: Ctx, id: string) {
  requirePermission(ctx, 'view', 'vulnerability_scans');
  await requireScansOn(ctx);
  const companyId = companyScope(ctx);
  const scan = await securityScansRepo(ctx.services.db).get(companyId, id);
  if (!scan) throw notFound('Scan');
  const asset = await securityAssetsRepo(ctx.services.db).get(scan.company_id, scan.asset_id);
  const findings = await securityFindingsRepo(ctx.services.db).list({ companyId: scan.company_id, assetId: scan.asset_id, source: 'scan' });
  return { scan: presentScan(scan, asset?.hostname ?? null), findings: findings.map(presentFinding) };
}
