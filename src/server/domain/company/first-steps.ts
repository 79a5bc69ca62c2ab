// The first steps of a new company (issue 13 item 8), shown on its admin's dashboard until done:
// add a monitor, see the status page, set up alerts, invite the team. Each is read from the
// company's data, so it ticks however the step was taken (console, API, another admin).
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { requireActor, requirePermission } from '../authz.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { firstStepsRepo } from '../../db/repositories/first-steps-repo.ts';
import { tenantOrigin } from '../../../lib/hosts.ts';

export async function getFirstSteps(ctx: Ctx, port: string) {
  const actor = requireActor(ctx);
  if (!actor.companyId) throw new DomainError('not_found', 'Your account is not assigned to a company.');
  // the steps create things: a viewer can take none of them
  requirePermission(ctx, 'create', 'monitors', 'set up the company');
  const company = await companiesRepo(ctx.services.db).findById(actor.companyId);
  if (!company) throw new DomainError('not_found', 'Company not found');
  const { config } = ctx.services;
  return {
    steps: await firstStepsRepo(ctx.services.db).done(company.id),
    status_page_url: company.subdomain ? `${tenantOrigin(config.publicScheme, company.subdomain, config.productDomain, port)}/` : null,
  };
}
