// The header names the company being looked at: a company user's own, with its status page's
// address; for the super admin the chosen tenant's address (the tenant switch names it), or
// "Global view" when no tenant switch is shown.
import { useStore } from '@nanostores/react';
import { $role, $user } from '../stores/auth.ts';
import { $selectedTenant, $tenantOptions } from '../stores/tenant.ts';
import { StatusPageLink } from '../ui/StatusPageLink.tsx';
import { t } from '../i18n.ts';

export function HeaderCompany({ tenantSwitch }: { tenantSwitch: boolean }) {
  const user = useStore($user);
  const role = useStore($role);
  const selected = useStore($selectedTenant);
  const options = useStore($tenantOptions);
  if (role === 'super_admin') {
    const chosen = options.list.find((c) => c.id === selected);
    if (chosen)
      return (
        <span className="sw-header-company" data-testid="header-company">
          <StatusPageLink subdomain={chosen.subdomain} className="sw-header-address" />
        </span>
      );
    return tenantSwitch ? null : (
      <span className="sw-header-company" data-testid="header-company">
        {t('layout.globalView')}
      </span>
    );
  }
  const company = user?.company;
  if (!company) return null;
  return (
    <span className="sw-header-company" data-testid="header-company">
      {company.name && <span className="sw-header-company-name">{company.name}</span>}
      <StatusPageLink subdomain={company.subdomain} className="sw-header-address" />
    </span>
  );
}
