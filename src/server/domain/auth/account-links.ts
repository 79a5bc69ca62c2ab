// Links mailed to an account's owner open on the host where that account signs in: its
// company's subdomain, or the main host for super admins.
import type { Services } from '../context.ts';
import { mainOrigin, tenantOrigin } from '../../../lib/hosts.ts';
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
