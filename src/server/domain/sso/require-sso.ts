// Require SSO (issue 31): when a company turns it on, its users sign in only through its identity
// provider. Password sign-in and password reset are refused for them; super admins and the
// company's named break-glass admin keep their password (the way in when the provider is down).
import type { Services } from '../context.ts';
import type { UserRow } from '../../db/repositories/users-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { companySsoRepo } from '../../db/repositories/company-sso-repo.ts';
import { planHasFeature } from '../../../lib/plans.ts';

/** Whether this user must sign in with SSO instead of a password. */
export async function passwordRefusedBySso(services: Services, user: Pick<UserRow, 'id' | 'user_type' | 'company_id'>): Promise<boolean> {
  if (user.user_type === 1 || !user.company_id) return false;
  const sso = await companySsoRepo(services.db).get(user.company_id);
  if (!sso?.require_sso || sso.break_glass_user_id === user.id) return false;
  // A plan that lost the feature cannot sign anyone in with SSO: passwords work again.
  const company = await companiesRepo(services.db).findById(user.company_id);
  return planHasFeature(services.config.planFeatures, company?.plan, 'sso');
}

/** Whether "Sign in with SSO" can work for this company: its plan has the feature and SSO is configured. */
export async function ssoOffered(services: Services, company: { id: string; plan: string | null }): Promise<boolean> {
  return (
    planHasFeature(services.config.planFeatures, company.plan, 'sso') && (await companySsoRepo(services.db).get(company.id)) !== undefined
  );
}

/** The same, by the company's id (the private-page gate knows only that). */
export async function companyOffersSso(services: Services, companyId: string): Promise<boolean> {
  const company = await companiesRepo(services.db).findById(companyId);
  return company ? ssoOffered(services, company) : false;
}
