// The Settings screens' data: the company's profile and branding, its plan and usage and its OTLP
// ingest keys (/settings/company); the platform's flags, signup and mail (/settings/platform);
// the audit log (/settings/audit). A company admin works on their own company, a super admin on
// the company chosen in the header.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { isHexColour } from '../../../../lib/formats.ts';
import { api, detailOr, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { parseUtcInput } from '../../../../lib/dates.ts';
import { FLAG_LABELS } from '../../../../lib/labels.ts';
import { consoleLabel } from '../../labels.ts';
import { always, changeThenReload, inAlert, loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

export type Company = components['schemas']['Company'];
export type CompanyUsage = components['schemas']['CompanyUsage'];
export type ApiKey = components['schemas']['ApiKey'];
export type PlatformSettings = components['schemas']['PlatformSettings'];
export type AuditPage = components['schemas']['AuditPage'];
export type AuditEventName = components['schemas']['AuditEventName'];

export const $company = atom<Load<Company>>({ status: 'loading' });
export const $usage = atom<Load<CompanyUsage>>({ status: 'loading' });
export const $keys = atom<Load<ApiKey[]>>({ status: 'loading' });
export const $profileAlert = atom<Alert | null>(null);
export const $keysAlert = atom<Alert | null>(null);

/** The company a settings screen works on: a company user's own, a super admin's chosen one (or none). */
export function settingsCompanyId(role: string | null, ownCompanyId: string | null | undefined, chosen: string | null): string | null {
  return role === 'super_admin' ? chosen : (ownCompanyId ?? null);
}

export function loadCompanySettings(id: string, superAdmin: boolean): Promise<unknown> {
  const failed = always(t('settings.profile.loadFailed'));
  return Promise.all([
    superAdmin
      ? loadInto($company, () => api.GET('/api/v1/admin/companies/{id}', { params: { path: { id } } }), failed)
      : loadInto(
          $company,
          async () => {
            const r = await api.GET('/api/v1/company/fetch-company');
            return { ...r, data: r.data?.company };
          },
          failed,
        ),
    loadInto($usage, () => api.GET('/api/v1/companies/{id}/usage', { params: { path: { id } } }), serverOr(t('settings.usage.loadFailed'))),
    loadKeys(id, superAdmin),
  ]);
}

export interface ProfileForm {
  name: string;
  url: string;
  phone: string;
  primaryColor: string;
  secondaryColor: string;
  logo: string | null;
  horizontalLogo: string | null;
}

export function profileFormOf(c: Company): ProfileForm {
  return {
    name: c.name,
    url: c.url ?? '',
    phone: c.phone ?? '',
    primaryColor: c.primary_color,
    secondaryColor: c.secondary_color,
    logo: c.logo_base64 ?? null,
    horizontalLogo: c.horizontal_logo_base64 ?? null,
  };
}

/** The checks the server makes too, for a message before sending. */
export function validateProfile(f: ProfileForm): Record<string, string> {
  const e: Record<string, string> = {};
  if (!f.name.trim()) e.name = t('settings.profile.nameRequired');
  if (f.url.trim() && !/^https?:\/\/[^/\s]+/i.test(f.url.trim())) e.url = t('settings.profile.urlInvalid');
  if (!isHexColour(f.primaryColor)) e.primaryColor = t('settings.profile.colourInvalid');
  if (!isHexColour(f.secondaryColor)) e.secondaryColor = t('settings.profile.colourInvalid');
  return e;
}

export function saveProfile(original: Company, f: ProfileForm, superAdmin: boolean): Promise<boolean> {
  const body: components['schemas']['CompanyProfileInput'] = {
    name: f.name.trim(),
    url: f.url.trim() || null,
    phone: f.phone.trim() || null,
    primary_color: f.primaryColor,
    secondary_color: f.secondaryColor,
  };
  // Logos go only when changed (each may be 700 KB of base64).
  if (f.logo !== (original.logo_base64 ?? null)) body.logo_base64 = f.logo;
  if (f.horizontalLogo !== (original.horizontal_logo_base64 ?? null)) body.horizontal_logo_base64 = f.horizontalLogo;
  return changeThenReload(
    () => api.PUT('/api/v1/companies/{id}/profile', { params: { path: { id: original.id } }, body }),
    inAlert($profileAlert, t('settings.profile.saved'), t('settings.profile.saveFailed')),
    () => loadCompanySettings(original.id, superAdmin).then(() => undefined),
  );
}

/** Moves the company to another subdomain; the admin who did it is then taken there (redirectTo). */
export async function changeSubdomain(
  company: Company,
  subdomain: string,
): Promise<{ ok: boolean; text: string; field?: string; redirectTo?: string }> {
  const failed = t('settings.address.failed');
  try {
    const { data, error } = await api.PUT('/api/v1/companies/{id}/subdomain', {
      params: { path: { id: company.id } },
      body: { subdomain },
    });
    if (data) {
      if (!data.redirect_to) $company.set({ status: 'ready', data: data.company });
      return {
        ok: true,
        text: data.redirect_to ? t('settings.address.takingYouThere', { message: data.message }) : data.message,
        redirectTo: data.redirect_to ?? undefined,
      };
    }
    const field = (error as { errors?: Record<string, string> } | undefined)?.errors?.subdomain;
    return { ok: false, text: detailOr(error, failed), field };
  } catch (e) {
    return { ok: false, text: detailOr(e, failed) };
  }
}

export function loadKeys(companyId: string, superAdmin: boolean): Promise<void> {
  return loadInto(
    $keys,
    () => api.GET('/api/v1/api-keys', { params: { query: superAdmin ? { company_id: companyId } : {} } }),
    serverOr(t('settings.keys.loadFailed')),
  );
}

/** Origins typed one a line (or separated by commas or spaces). */
export function originsOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((o) => o.trim())
    .filter(Boolean);
}

/** Creates a key; answers its secret (shown once) or the reason it was refused. */
export async function createKey(
  companyId: string,
  superAdmin: boolean,
  name: string,
  origins: string[],
): Promise<{ key: string } | { error: string }> {
  try {
    const { data, error } = await api.POST('/api/v1/api-keys', {
      body: { name: name.trim(), scope: 'ingest', allowed_origins: origins, ...(superAdmin ? { company_id: companyId } : {}) },
    });
    if (!data) return { error: errorText(error, t('settings.keys.createFailed')) };
    await loadKeys(companyId, superAdmin);
    return { key: data.key };
  } catch (e) {
    return { error: errorText(e, t('settings.keys.createFailed')) };
  }
}

export function setKeyOrigins(companyId: string, superAdmin: boolean, key: ApiKey, origins: string[]): Promise<boolean> {
  return changeThenReload(
    () => api.PATCH('/api/v1/api-keys/{id}', { params: { path: { id: key.id } }, body: { allowed_origins: origins } }),
    inAlert($keysAlert, t('settings.keys.originsSaved', { name: key.name }), t('settings.keys.originsFailed', { name: key.name })),
    () => loadKeys(companyId, superAdmin),
  );
}

export function revokeKey(companyId: string, superAdmin: boolean, key: ApiKey): Promise<boolean> {
  return changeThenReload(
    async () => {
      const r = await api.DELETE('/api/v1/api-keys/{id}', { params: { path: { id: key.id } } });
      return { ...r, data: r.response.ok ? true : undefined };
    },
    inAlert($keysAlert, t('settings.keys.revoked', { name: key.name }), t('settings.keys.revokeFailed', { name: key.name })),
    () => loadKeys(companyId, superAdmin),
  );
}

export const $platform = atom<Load<PlatformSettings>>({ status: 'loading' });
export const $platformAlert = atom<Alert | null>(null);

export function loadPlatform(): Promise<void> {
  return loadInto($platform, () => api.GET('/api/v1/admin/platform'), serverOr(t('settings.platform.loadFailed')));
}

export function setFlag(name: string, on: boolean): Promise<boolean> {
  const label = consoleLabel('flag', FLAG_LABELS, name);
  return changeThenReload(
    () => api.PUT('/api/v1/admin/flags', { body: { [name]: on } }),
    inAlert(
      $platformAlert,
      on ? t('settings.platform.flagOn', { label }) : t('settings.platform.flagOff', { label }),
      t('settings.platform.flagFailed', { label }),
    ),
    loadPlatform,
  );
}

/** The platform setting that lets company admins invite teammates (issue 25 item 5). */
export function setCompanyAdminsInvite(on: boolean): Promise<boolean> {
  return changeThenReload(
    () => api.PATCH('/api/v1/admin/platform', { body: { company_admins_invite: on } }),
    inAlert(
      $platformAlert,
      on ? t('settings.platform.invitersOn') : t('settings.platform.invitersOff'),
      t('settings.platform.invitersFailed'),
    ),
    loadPlatform,
  );
}

/** Sends the test mail; the outcome goes to the platform alert (the server's words either way). */
export async function sendSmtpTest(): Promise<void> {
  try {
    const { data, error } = await api.POST('/api/v1/admin/smtp-test');
    $platformAlert.set(data ? { ok: true, text: data.message } : { ok: false, text: errorText(error, t('settings.platform.testFailed')) });
  } catch (e) {
    $platformAlert.set({ ok: false, text: errorText(e, t('settings.platform.testFailed')) });
  }
}

export interface AuditFilters {
  event: AuditEventName | '';
  userId: string;
  tenantId: string;
  /** datetime-local values, in UTC (lib/dates.ts) */
  from: string;
  to: string;
}
export const EMPTY_AUDIT_FILTERS: AuditFilters = { event: '', userId: '', tenantId: '', from: '', to: '' };
export const AUDIT_PAGE_SIZE = 50;

export const $audit = atom<Load<AuditPage>>({ status: 'loading' });
export const $auditUsers = atom<components['schemas']['User'][]>([]);

function isoOf(utc: string): string | undefined {
  const t = parseUtcInput(utc);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

export function loadAudit(f: AuditFilters, offset: number): Promise<void> {
  const query = {
    event: f.event || undefined,
    user_id: f.userId || undefined,
    tenant_id: f.tenantId || undefined,
    from: isoOf(f.from),
    to: isoOf(f.to),
    limit: AUDIT_PAGE_SIZE,
    offset,
  };
  return loadInto($audit, () => api.GET('/api/v1/admin/audit', { params: { query } }), serverOr(t('settings.audit.loadFailed')));
}

export async function loadAuditUsers(): Promise<void> {
  const { data } = await api.GET('/api/v1/admin/users', { params: { query: {} } }).catch(() => ({ data: undefined }));
  if (data) $auditUsers.set(data);
}

/** The outcome of saving the company's default locations, shown in their card. */
export const $defaultLocationsAlert = atom<Alert | null>(null);

/** The locations monitors without their own list are checked from; null: the built-in engine alone. */
export function saveDefaultLocations(company: Company, slugs: string[] | null, superAdmin: boolean): Promise<boolean> {
  return changeThenReload(
    () => api.PUT('/api/v1/companies/{id}/profile', { params: { path: { id: company.id } }, body: { default_locations: slugs } }),
    inAlert($defaultLocationsAlert, t('settings.locations.saved'), t('settings.locations.saveFailed')),
    () => loadCompanySettings(company.id, superAdmin).then(() => undefined),
  );
}
