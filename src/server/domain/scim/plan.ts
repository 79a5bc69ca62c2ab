// Which plans may provision people with SCIM. There is no table of plan features yet: SCIM is an
// Enterprise feature (like single sign-on), the same list gates the token and every SCIM call
// (a company moved to a smaller plan keeps its data, and its identity provider is told why).
import type { PlanName } from '../../../lib/plans.ts';

export const SCIM_PLANS: ReadonlySet<string> = new Set<PlanName>(['enterprise']);

export const SCIM_PLAN_REQUIRED = 'SCIM provisioning is part of the Enterprise plan. Ask your StatusWatch operator to change your plan.';

export function planAllowsScim(plan: string): boolean {
  return SCIM_PLANS.has(plan);
}
