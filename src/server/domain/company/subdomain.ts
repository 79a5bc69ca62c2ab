// A company admin moves their company to another subdomain (issue 25 item 4: a signup's subdomain
// is no longer fixed for good). The same rules as signup and the tenant form (a DNS label, not a
// reserved word, not another company's), audited as tenant_update. Sessions are host-only, so
// every session of the company ends, as when a super admin moves it; the admin who made the
// change is handed over to the new address with a one-time code. The old address is free at
// once: nothing there redirects, since another company may take it.
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { requirePermission } from '../authz.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { endCompanySessions } from '../auth/sessions.ts';
import { createHandoffCode } from '../auth/handoff.ts';
import { auditFromCtx } from '../audit/record.ts';
import { withTransaction } from '../../db/scope.ts';
import { subdomainProblem, tenantOrigin } from '../../../lib/hosts.ts';
import { SUBDOMAIN_TAKEN } from '../auth/signup.ts';
import { loadCompany } from './admin.ts';
import { toCompanyView, type CompanyView } from './present.ts';

export interface SubdomainChange {
  company: CompanyView;
  /** The company's new address */
  address: string;
  /** The new address's handoff link for the admin who made the change (null for super admins) */
  redirect_to: string | null;
  message: string;
}

export async function changeCompanySubdomain(ctx: Ctx, id: string, input: { subdomain: string }, port: string): Promise<SubdomainChange> {
  const actor = requirePermission(ctx, 'update', 'settings');
  if (actor.role !== 'super_admin' && actor.companyId !== id) throw notFound('Company');
  const before = await loadCompany(ctx, id);
  const subdomain = input.subdomain.trim().toLowerCase();
  const problem = subdomainProblem(subdomain);
  if (problem) throw new DomainError('validation', problem, { fields: { subdomain: problem } });
  const { services } = ctx;
  const { config } = services;
  const address = tenantOrigin(config.publicScheme, subdomain, config.productDomain, port);
  const users = usersRepo(services.db);
  if (subdomain === before.subdomain)
    return {
      company: toCompanyView(before, await users.countByCompany(id)),
      address,
      redirect_to: null,
      message: 'The subdomain is unchanged.',
    };
  const repo = companiesRepo(services.db);
  // the slug follows the subdomain when it was the same, as in the tenant form
  const slug = before.slug === before.subdomain ? subdomain : before.slug;
  const holder = await repo.findBySubdomain(subdomain);
  const slugHolder = slug === subdomain ? await repo.findBySlug(subdomain) : undefined;
  if ((holder && holder.id !== id) || (slugHolder && slugHolder.id !== id))
    throw new DomainError('conflict', SUBDOMAIN_TAKEN, { fields: { subdomain: SUBDOMAIN_TAKEN } });
  // The new address, the end of the company's sessions, the audit row and the mover's handoff
  // code commit together.
  let redirect_to: string | null = null;
  try {
    await withTransaction(services.db, async (tx) => {
      await companiesRepo(tx).update(id, { subdomain, slug, updated_at: services.now() });
      await endCompanySessions(services, id, tx);
      await auditFromCtx(
        tx,
        ctx,
        'tenant_update',
        { company_id: id, changed: ['subdomain'], subdomain: { from: before.subdomain, to: subdomain } },
        undefined,
        id,
      );
      // read after its sessions ended: the code carries the new session version
      const me = actor.role === 'super_admin' ? undefined : await usersRepo(tx).findById(actor.userId);
      if (me) {
        const code = await createHandoffCode(services, me, `${subdomain}.${config.productDomain}`, false, tx);
        redirect_to = `${address}/auth/handoff?code=${code}&next=${encodeURIComponent('/settings/company')}`;
      }
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new DomainError('conflict', SUBDOMAIN_TAKEN, { fields: { subdomain: SUBDOMAIN_TAKEN } });
    throw e;
  }
  return {
    company: toCompanyView(await loadCompany(ctx, id), await users.countByCompany(id)),
    address,
    redirect_to,
    message: `The company's address is now ${address}. ${before.subdomain ? `${before.subdomain} no longer leads to it. ` : ''}Everyone signs in again there.`,
  };
}
