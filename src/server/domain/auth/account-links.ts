// Links mailed to an account's owner open on the host where that account signs in: its
// company's subdomain, or the main host for super admins. A link works only there (issue 25
// item 19), as subscriber links do: opened on another company's host it is as dead as a made-up
// one, so a token never acts for a company other than the one whose address it was mailed to.
import type { Services } from '../context.ts';
import { classifyHost, mainOrigin, tenantOrigin } from '../../../lib/hosts.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import type { UserRow } from '../../db/repositories/users-repo.ts';

/** Origin and host name for the user's links, or null when their company is inactive. */
export async function accountOrigin(services: Services, user: UserRow, port: string): Promise<{ origin: string; host: string } | null> {
  const { config } = services;
  if (user.user_type !== 1 && user.company_id) {
    const company = await companiesRepo(services.db).findById(user.company_id);
    if (!company?.is_active) return null;
    if (company.subdomain) {
      return {
        origin: tenantOrigin(config.publicScheme, company.subdomain, config.productDomain, port),
        host: `${company.subdomain}.${config.productDomain}`,
      };
    }
  }
  return { origin: mainOrigin(config.publicScheme, config.productDomain, port), host: config.productDomain };
}

/**
 * Whether `host` is the address a link of this company (null: of the main host, super admins)
 * was mailed to: the company's current subdomain, or the main host for a company without one.
 */
export async function isCompanyLinkHost(services: Services, companyId: string | null, host: string): Promise<boolean> {
  const h = classifyHost(host, services.config.productDomain);
  const company = companyId ? await companiesRepo(services.db).findById(companyId) : undefined;
  if (company?.subdomain) return h.kind === 'tenant' && h.subdomain === company.subdomain;
  return h.kind === 'root';
}
