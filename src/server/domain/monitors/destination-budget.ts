// The per-destination check budget (issue 25, item 17): every company's active monitors together
// may send at most MAX_CHECKS_PER_HOST_PER_MINUTE checks a minute to one destination host, so the
// platform cannot be rented as a flood of someone else's server (the enterprise plan has no
// monitor limit). Creating, changing, resuming or restoring a monitor that would take a host over
// the budget is refused (422, naming the host and the budget); hosts near or over it (after the
// operator lowered the setting) are the operator's finding, and the engine stretches their
// monitors' intervals so the host never gets more (engine/destination-stretch.ts).
import { checksPerMinute, formatRate } from '../../../lib/destination-host.ts';
import { destinationBudgetRepo } from '../../db/repositories/destination-budget-repo.ts';
import { requireSuperAdmin } from '../authz.ts';
import type { Ctx, Services } from '../context.ts';
import { DomainError } from '../errors.ts';

/** A host at this share of the budget is reported as near it. */
export const NEAR_SHARE = 0.8;
/** Hosts listed at most in the operator's finding */
const LISTED = 100;

export interface Destination {
  host: string;
  /** The monitor field that names it (url, host, resolver), for the form's message */
  field: string;
}

/** Refuses when `intervalSeconds` more checks to `destination` would pass the budget. */
export async function requireDestinationBudget(
  s: Services,
  destination: Destination | null,
  intervalSeconds: number,
  exceptMonitorId?: string,
): Promise<void> {
  const cap = s.config.maxChecksPerHostPerMinute;
  if (!cap || !destination) return;
  const adds = checksPerMinute(intervalSeconds);
  const already = await destinationBudgetRepo(s.db).perMinute(destination.host, exceptMonitorId);
  // A little slack for the division's rounding: 4 monitors at 60 s fit a budget of 4 exactly.
  if (already + adds <= cap + 1e-9) return;
  const detail =
    `Checks of ${destination.host} are limited to ${cap} a minute across all monitors on this platform, ` +
    `and this monitor's ${formatRate(adds)} a minute (every ${intervalSeconds} s) would go over that budget. ` +
    'Choose a longer interval or another target, or ask your platform administrator.';
  throw new DomainError('limit_exceeded', detail, { fields: { [destination.field]: detail, interval_seconds: detail } });
}

/** The operator's finding: hosts near (80 %) or over the budget, busiest first. */
export async function listDestinationBudget(ctx: Ctx) {
  requireSuperAdmin(ctx);
  const cap = ctx.services.config.maxChecksPerHostPerMinute;
  const hosts = cap ? await destinationBudgetRepo(ctx.services.db).busiest(cap * NEAR_SHARE, LISTED) : [];
  return {
    cap_per_minute: cap,
    near_share: NEAR_SHARE,
    hosts: hosts.map((h) => ({
      host: h.host,
      checks_per_minute: Math.round(h.per_minute * 100) / 100,
      monitors: h.monitors,
      companies: h.companies,
      state: h.per_minute > cap + 1e-9 ? ('over' as const) : ('near' as const),
      // The engine spaces these monitors' checks out by this factor (1: not at all).
      stretch: h.per_minute > cap ? Math.round((h.per_minute / cap) * 100) / 100 : 1,
    })),
  };
}
