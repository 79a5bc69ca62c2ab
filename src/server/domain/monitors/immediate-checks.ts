// Saving a monitor (create, update, resume) checks it at once only within limits (issue 11):
// one immediate check per monitor per window and `perCompany` per company per window. Each save
// answered with a check let a tcp monitor scan ports as fast as it was re-saved. A refused save is
// kept and checked at its next slot (a new or resumed monitor within the window).
import { monitorsRepo } from '../../db/repositories/monitors-repo.ts';
import { afterCommit, type DbScope } from '../../db/scope.ts';
import type { Ctx } from '../context.ts';
import type { ImmediateCheckLimits } from './monitoring-services.ts';

export const IMMEDIATE_CHECK_LIMITS: ImmediateCheckLimits = { windowMs: 60_000, perCompany: 10 };

export function immediateCheckLimits(ctx: Ctx): ImmediateCheckLimits {
  return ctx.services.monitoring?.immediateChecks ?? IMMEDIATE_CHECK_LIMITS;
}

/** The due time of a new or resumed monitor if its immediate check is refused. */
export function firstDueAt(ctx: Ctx, now: number, intervalSeconds: number): number {
  return now + Math.min(intervalSeconds * 1000, immediateCheckLimits(ctx).windowMs);
}

/**
 * Makes the monitor due now when the limits allow; answers whether they did. Written through `db`,
 * the transaction of the save; the engine is woken once that has committed (it would not see the
 * monitor due before).
 */
export async function requestImmediateCheck(ctx: Ctx, m: { id: string; company_id: string }, db: DbScope): Promise<boolean> {
  const s = ctx.services;
  const limits = immediateCheckLimits(ctx);
  const granted = await monitorsRepo(db).grantImmediateCheck(m.id, m.company_id, s.now(), limits.windowMs, limits.perCompany);
  if (granted) afterCommit(db, () => s.monitoring?.engine?.poke());
  return granted;
}
