// Each company's tuning of anomaly watching (issue 33, item 2): how sensitive the latency
// detector is, and the probes-versus-traffic check, each `off`, `low`, `normal` (the default) or
// `high`. Any member reads it; company admins change it, audited as a settings change.
import { anomaliesRepo, type AnomalySettingsRow } from '../../db/repositories/anomalies-repo.ts';
import type { AnomalyLevel } from '../../db/schema/anomalies.ts';
import { withTransaction } from '../../db/scope.ts';
import { auditFromCtx } from '../audit/record.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { toIso } from '../ids.ts';

export const ANOMALY_LEVELS: readonly AnomalyLevel[] = ['off', 'low', 'normal', 'high'];
/** Quiet by default: the sensitivity whose false-positive budget bench/anomalies measures. */
export const DEFAULT_LEVEL: AnomalyLevel = 'normal';

export interface AnomalySettingsView {
  company_id: string;
  latency: AnomalyLevel;
  divergence: AnomalyLevel;
  /** null while the defaults apply */
  updated_at: string | null;
}

export const levelOf = (v: string | null | undefined): AnomalyLevel =>
  ANOMALY_LEVELS.includes(v as AnomalyLevel) ? (v as AnomalyLevel) : DEFAULT_LEVEL;

const view = (companyId: string, row: AnomalySettingsRow | undefined): AnomalySettingsView => ({
  company_id: companyId,
  latency: levelOf(row?.latency),
  divergence: levelOf(row?.divergence),
  updated_at: row ? toIso(row.updated_at) : null,
});

function ownCompany(ctx: Ctx, tenant: string | null | undefined): string {
  const companyId = companyScope(ctx, tenant ?? null);
  if (!companyId) {
    const message = 'Choose the company (tenant) whose anomaly settings these are';
    throw new DomainError('validation', message, { fields: { tenant: message } });
  }
  return companyId;
}

export async function getAnomalySettings(ctx: Ctx, q: { tenant?: string } = {}): Promise<AnomalySettingsView> {
  requirePermission(ctx, 'view', 'monitors', 'view anomaly settings');
  const companyId = ownCompany(ctx, q.tenant);
  return view(companyId, await anomaliesRepo(ctx.services.db).settings(companyId));
}

export async function putAnomalySettings(
  ctx: Ctx,
  input: { latency?: string; divergence?: string },
  q: { tenant?: string } = {},
): Promise<AnomalySettingsView> {
  const actor = requirePermission(ctx, 'update', 'settings', 'change anomaly settings');
  const companyId = ownCompany(ctx, q.tenant);
  const fields: Record<string, string> = {};
  for (const key of ['latency', 'divergence'] as const) {
    const v = input[key];
    if (v !== undefined && !ANOMALY_LEVELS.includes(v as AnomalyLevel)) fields[key] = `Choose ${ANOMALY_LEVELS.join(', ')}`;
  }
  if (Object.keys(fields).length) throw new DomainError('validation', Object.values(fields)[0], { fields });
  const now = ctx.services.now();
  return withTransaction(ctx.services.db, async (tx) => {
    const repo = anomaliesRepo(tx);
    const before = view(companyId, await repo.settings(companyId));
    const row: AnomalySettingsRow = {
      company_id: companyId,
      latency: levelOf(input.latency ?? before.latency),
      divergence: levelOf(input.divergence ?? before.divergence),
      updated_at: now,
      updated_by: actor.userId,
    };
    await repo.putSettings(row);
    const changed = Object.fromEntries(
      (['latency', 'divergence'] as const)
        .filter((k) => before[k] !== row[k])
        .map((k) => [`anomaly_${k}`, { from: before[k], to: row[k] }]),
    );
    await auditFromCtx(tx, ctx, 'settings_update', { anomaly_settings: changed }, undefined, companyId);
    return view(companyId, row);
  });
}
