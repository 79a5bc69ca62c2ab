// What the security analyses found, across sources: the list (viewing it is recorded as
// `vulnerability_view`) and an admin's decision on one finding: accept the risk (a reason is
// required) or reopen it. Each finding's rights are those of the analysis that raised it.
import { can } from '../../../lib/permissions.ts';
import { ASSET_RESOURCE, FINDING_SOURCE_RESOURCE as SOURCE_RESOURCE } from '../../../lib/security-assets.ts';
import { securityAssetsRepo } from '../../db/repositories/security-assets-repo.ts';
import { securityFindingsRepo } from '../../db/repositories/security-findings-repo.ts';
import type { FindingSeverity, FindingStatus, SecuritySource } from '../../db/schema/security.ts';
import { auditFromCtx } from '../audit/record.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { requireSecurityService, securitySections } from './assets.ts';
import { presentFinding } from './present.ts';

const SEVERITY_ORDER: Record<FindingSeverity, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };
export const MAX_REASON_CHARS = 1000;

export interface FindingQuery {
  tenant?: string;
  asset?: string;
  source?: SecuritySource;
  status?: FindingStatus;
  severity?: FindingSeverity;
  limit?: number;
}

export async function listFindings(ctx: Ctx, q: FindingQuery) {
  const actor = requirePermission(ctx, 'view', ASSET_RESOURCE, 'view security findings');
  await requireSecurityService(ctx);
  const sections = await securitySections(ctx);
  const scope = companyScope(ctx, q.tenant);
  const visible = (s: SecuritySource) => sections[s] && can(actor.role, 'view', SOURCE_RESOURCE[s]);
  const [rows, assets] = await Promise.all([
    securityFindingsRepo(ctx.services.db).list({ companyId: scope, assetId: q.asset, source: q.source, status: q.status }),
    securityAssetsRepo(ctx.services.db).list(scope),
  ]);
  const hostOf = new Map(assets.map((a) => [a.id, a.hostname]));
  const shown = rows
    .filter((f) => visible(f.source) && (q.severity === undefined || f.severity === q.severity))
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || b.last_seen_at - a.last_seen_at);
  const limit = q.limit ?? 500;
  await auditFromCtx(
    ctx.services.db,
    ctx,
    'vulnerability_view',
    {
      filters: { asset: q.asset ?? null, source: q.source ?? null, status: q.status ?? null, severity: q.severity ?? null },
      shown: Math.min(limit, shown.length),
    },
    undefined,
    scope,
  );
  return {
    findings: shown.slice(0, limit).map((f) => presentFinding(f, hostOf.get(f.asset_id) ?? '')),
    total: shown.length,
  };
}

export interface FindingStatusInput {
  status: 'open' | 'accepted';
  reason?: string | null;
}

/** Accepting needs a reason (kept with the finding); reopening clears it. A fixed finding is left as it is. */
export async function setFindingStatus(ctx: Ctx, id: string, input: FindingStatusInput) {
  requirePermission(ctx, 'view', ASSET_RESOURCE, 'view security findings');
  await requireSecurityService(ctx);
  await securitySections(ctx);
  const repo = securityFindingsRepo(ctx.services.db);
  const finding = await repo.get(companyScope(ctx, null), id);
  if (!finding) throw notFound('Finding');
  requirePermission(ctx, 'update', SOURCE_RESOURCE[finding.source], 'change security findings');
  const reason = input.reason?.trim() ?? '';
  if (input.status === 'accepted' && reason === '')
    throw new DomainError('validation', 'Say why the risk is accepted: a reason is required.', { fields: { reason: 'required' } });
  if (reason.length > MAX_REASON_CHARS)
    throw new DomainError('validation', `The reason is at most ${MAX_REASON_CHARS} characters.`, { fields: { reason: 'too long' } });
  if (finding.status === 'fixed')
    throw new DomainError('conflict', 'This finding is fixed: the last run no longer saw it. A new run reopens it if it comes back.');
  const now = ctx.services.now();
  await repo.setStatus(finding.id, input.status, input.status === 'accepted' ? reason : null, now);
  const asset = await securityAssetsRepo(ctx.services.db).get(finding.company_id, finding.asset_id);
  return presentFinding((await repo.get(finding.company_id, finding.id))!, asset?.hostname ?? '');
}
