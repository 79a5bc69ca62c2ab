// Feature flags: the spec's defaults, then what super admins stored, then the operator's
// FLAG_ENABLE_* overrides (which win and cannot be changed from the console).
import type { Ctx, Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { requireActor, requireSuperAdmin } from '../authz.ts';
import { DEFAULT_FLAGS, FLAG_NAMES, isFlagName, type FlagMap, type FlagName } from '../../../lib/flags.ts';
import { flagsRepo } from '../../db/repositories/flags-repo.ts';
import { auditFromCtx } from '../audit/record.ts';
import { withTransaction } from '../../db/scope.ts';

async function effectiveFlags(ctx: Pick<Ctx, 'services'>): Promise<FlagMap> {
  const flags: FlagMap = { ...DEFAULT_FLAGS };
  for (const row of await flagsRepo(ctx.services.db).list()) {
    if (isFlagName(row.name)) flags[row.name] = row.enabled;
  }
  for (const [name, on] of Object.entries(ctx.services.config.flagOverrides)) {
    if (isFlagName(name)) flags[name] = on;
  }
  return flags;
}

/** One flag's effective value, for server-side features it governs (no actor needed). */
export async function flagOn(services: Services, name: FlagName): Promise<boolean> {
  return (await effectiveFlags({ services }))[name];
}

export async function getFlags(ctx: Ctx): Promise<FlagMap> {
  requireActor(ctx);
  return effectiveFlags(ctx);
}

export async function setFlags(ctx: Ctx, changes: Record<string, boolean>): Promise<FlagMap> {
  const actor = requireSuperAdmin(ctx);
  const unknown = Object.keys(changes).filter((n) => !isFlagName(n));
  if (unknown.length) {
    throw new DomainError(
      'validation',
      `Unknown feature flag${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Known flags: ${FLAG_NAMES.join(', ')}.`,
    );
  }
  const fixed = Object.keys(changes).filter((n) => n in ctx.services.config.flagOverrides);
  if (fixed.length) {
    throw new DomainError(
      'conflict',
      `${fixed.join(', ')} ${fixed.length > 1 ? 'are' : 'is'} set by the operator (FLAG_${fixed[0]}) and cannot be changed here.`,
    );
  }
  const before = await effectiveFlags(ctx);
  const now = ctx.services.now();
  const changed = Object.fromEntries(Object.entries(changes).filter(([n, on]) => before[n as keyof FlagMap] !== on));
  // Every flag of the change and its audit row commit together.
  await withTransaction(ctx.services.db, async (tx) => {
    for (const [name, on] of Object.entries(changes)) await flagsRepo(tx).upsert(name, on, now, actor.userId);
    await auditFromCtx(tx, ctx, 'settings_update', { feature_flags: changed });
  });
  return effectiveFlags(ctx);
}
