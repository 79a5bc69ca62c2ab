// What a Host header means (section 1 of the spec): the main site, an active company's
// subdomain, a tenant-shaped host with no such active company, or a host outside the domain.
import type { HostKind, PageCompany } from '../../../lib/page-services.ts';
import { classifyHost, hostName } from '../../../lib/hosts.ts';
import type { Services } from '../context.ts';
import { companiesRepo, type CompanyRow } from '../../db/repositories/companies-repo.ts';
import { ssoOffered } from '../sso/require-sso.ts';

export function toPageCompany(c: CompanyRow): PageCompany {
  return {
    id: c.id,
    name: c.name,
    subdomain: c.subdomain ?? '',
    primaryColor: c.primary_color,
    secondaryColor: c.secondary_color,
    logoBase64: c.logo_base64,
    horizontalLogoBase64: c.horizontal_logo_base64,
  };
}

export async function resolveHost(services: Services, hostHeader: string): Promise<HostKind> {
  const where = classifyHost(hostName(hostHeader), services.config.productDomain);
  if (where.kind !== 'tenant') return where;
  const company = await companiesRepo(services.db).findBySubdomain(where.subdomain);
  if (!company?.is_active) return { kind: 'unknown_tenant', subdomain: where.subdomain };
  // "Sign in with SSO" shows only where it can work: configured, and the plan has the feature.
  const sso = await ssoOffered(services, company);
  return { kind: 'tenant', subdomain: where.subdomain, company: { ...toPageCompany(company), sso } };
}
