// The anomaly episodes a company's members read (GET /api/v1/anomalies): newest first, open and
// ended, each with the evidence its notification carried (kept current while it went on).
import type { AnomalyEvidence } from '../../../lib/anomaly-evidence.ts';
import { anomaliesRepo } from '../../db/repositories/anomalies-repo.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { toIso, toIsoOrNull } from '../ids.ts';

export async function listAnomalies(ctx: Ctx, q: { tenant?: string; limit?: number } = {}) {
  requirePermission(ctx, 'view', 'monitors', 'view anomalies');
  const companyId = companyScope(ctx, q.tenant ?? null);
  if (!companyId) {
    const message = 'Choose the company (tenant) whose anomalies these are';
    throw new DomainError('validation', message, { fields: { tenant: message } });
  }
  const rows = await anomaliesRepo(ctx.services.db).list(companyId, q.limit ?? 50);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    subject: r.subject,
    monitor_id: r.monitor_id,
    title: r.title,
    started_at: toIso(Number(r.started_at)),
    resolved_at: toIsoOrNull(r.resolved_at === null ? null : Number(r.resolved_at)),
    evidence: JSON.parse(r.evidence) as AnomalyEvidence[],
  }));
}
