// Tenants Management (spec sections 2, 5, 8): the company list and its create/update/delete
// actions. Every successful change reloads the list.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { DEFAULT_SERVICES, type CompanyServices } from '../../../../lib/company.ts';
import { isEmail, isHexColour } from '../../../../lib/formats.ts';
import { RESERVED_SUBDOMAINS, subdomainProblem } from '../../../../lib/hosts.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { always, changeThenReload, inAlert, loadInto, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

export type Company = components['schemas']['Company'];
export type CompanyInput = components['schemas']['CompanyInput'];
export type Plan = components['schemas']['Plan'];
export type Services = CompanyServices;

export const $companies = atom<Load<Company[]>>({ status: 'loading' });
export const $tenantAlert = atom<Alert | null>(null);

export function loadCompanies(): Promise<void> {
  return loadInto($companies, () => api.GET('/api/v1/admin/companies'), always(t('tenants.loadFailed')));
}

export interface TenantForm {
  name: string;
  email: string;
  subdomain: string;
  url: string;
  phone: string;
  maxUsers: string;
  plan: Plan;
  status: 'active' | 'inactive';
  primaryColor: string;
  secondaryColor: string;
  services: Services;
  /** data: URLs as the server stores them; null = none */
  logo: string | null;
  horizontalLogo: string | null;
}

export const EMPTY_TENANT_FORM: TenantForm = {
  name: '',
  email: '',
  subdomain: '',
  url: '',
  phone: '',
  maxUsers: '10',
  plan: 'starter',
  status: 'active',
  primaryColor: '#007bff',
  secondaryColor: '#6c757d',
  services: DEFAULT_SERVICES,
  logo: null,
  horizontalLogo: null,
};

export function formOf(c: Company): TenantForm {
  return {
    name: c.name,
    email: c.email,
    subdomain: c.subdomain ?? '',
    url: c.url ?? '',
    phone: c.phone ?? '',
    maxUsers: String(c.max_users),
    plan: c.plan,
    status: c.status,
    primaryColor: c.primary_color,
    secondaryColor: c.secondary_color,
    services: { ...DEFAULT_SERVICES, ...c.services },
    logo: c.logo_base64 ?? null,
    horizontalLogo: c.horizontal_logo_base64 ?? null,
  };
}

/** Max Users: a number, non-numeric becomes 0 (which then fails the minimum of 1). */
export function maxUsersOf(v: string): number {
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : 0;
}

export function validateTenant(f: TenantForm): Record<string, string> {
  const e: Record<string, string> = {};
  if (!f.name.trim()) e.name = t('tenants.form.nameRequired');
  if (!f.email.trim()) e.email = t('tenants.form.emailRequired');
  else if (!isEmail(f.email.trim())) e.email = t('tenants.form.emailInvalid');
  const sub = f.subdomain.trim();
  if (!sub) e.subdomain = t('tenants.form.subdomainRequired');
  else {
    // the same rules as the server's (lib/hosts.ts), in the reader's language
    if (subdomainProblem(sub))
      e.subdomain =
        sub.length > 63
          ? t('tenants.form.subdomainTooLong')
          : RESERVED_SUBDOMAINS.includes(sub)
            ? t('tenants.form.subdomainReserved', { subdomain: sub })
            : t('tenants.form.subdomainInvalid');
  }
  if (f.url.trim()) {
    try {
      const u = new URL(f.url.trim());
      if (u.protocol !== 'http:' && u.protocol !== 'https:') e.url = t('tenants.form.urlInvalid');
    } catch {
      e.url = t('tenants.form.urlInvalid');
    }
  }
  if (maxUsersOf(f.maxUsers) < 1) e.maxUsers = t('tenants.form.maxUsersMin');
  if (!isHexColour(f.primaryColor)) e.primaryColor = t('tenants.form.colourInvalid');
  if (!isHexColour(f.secondaryColor)) e.secondaryColor = t('tenants.form.colourInvalid');
  return e;
}

/**
 * The request body. Logos go only when new or changed (each may be 700 KB of base64), null when
 * removed; `original` is the company being edited.
 */
export function payloadOf(f: TenantForm, original?: Company): CompanyInput {
  const body: CompanyInput = {
    name: f.name.trim(),
    email: f.email.trim(),
    subdomain: f.subdomain.trim(),
    url: f.url.trim() || null,
    phone: f.phone.trim() || null,
    max_users: maxUsersOf(f.maxUsers),
    plan: f.plan,
    status: f.status,
    is_active: f.status === 'active',
    primary_color: f.primaryColor,
    secondary_color: f.secondaryColor,
    services: f.services,
  };
  if (f.logo !== (original?.logo_base64 ?? null)) body.logo_base64 = f.logo;
  if (f.horizontalLogo !== (original?.horizontal_logo_base64 ?? null)) body.horizontal_logo_base64 = f.horizontalLogo;
  return body;
}

function change(verb: 'create' | 'update' | 'delete', call: () => Promise<{ data?: unknown; error?: unknown }>): Promise<boolean> {
  const done = {
    create: () => t('tenants.done.create'),
    update: () => t('tenants.done.update'),
    delete: () => t('tenants.done.delete'),
  }[verb]();
  const failed = {
    create: () => t('tenants.failed.create'),
    update: () => t('tenants.failed.update'),
    delete: () => t('tenants.failed.delete'),
  }[verb]();
  return changeThenReload(call, inAlert($tenantAlert, done, failed), loadCompanies);
}

export function createCompany(f: TenantForm): Promise<boolean> {
  return change('create', () => api.POST('/api/v1/admin/companies', { body: payloadOf(f) }));
}

export function updateCompany(original: Company, f: TenantForm): Promise<boolean> {
  return change('update', () =>
    api.PUT('/api/v1/admin/companies/{id}', { params: { path: { id: original.id } }, body: payloadOf(f, original) }),
  );
}

export function deleteCompany(id: string): Promise<boolean> {
  return change('delete', () => api.DELETE('/api/v1/admin/companies/{id}', { params: { path: { id } } }));
}
