// The company whose status page settings a call reads or changes: the user's own, or the one a
// super admin chose in the tenant selector.
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { companyScope } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';

export async function companyOf(ctx: Ctx, tenant: string | undefined) {
  const id = companyScope(ctx, tenant);
  if (id === null) throw new DomainError('validation', 'Choose a company in the tenant selector to edit its status page.');
  const company = await companiesRepo(ctx.services.db).findById(id);
  if (!company) throw notFound('Company');
  return company;
}
