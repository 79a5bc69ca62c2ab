// Feature flags: loaded once, cached for the page's life; the defaults of spec section 9 apply
// when the call fails (and fill any flag the server does not name).
import { atom } from 'nanostores';
import { api } from '../api.ts';

export const DEFAULT_FLAGS: Readonly<Record<string, boolean>> = {
  ENABLE_TENANT_SWITCH: true,
  ENABLE_USER_MGMT: true,
  ENABLE_API_INTELLIGENCE: true,
  ENABLE_THREAT_INTELLIGENCE: true,
  ENABLE_VULNERABILITY_SCANS: true,
  ENABLE_SSL_MONITORING: true,
  ENABLE_DOMAIN_CHECKS: true,
  ENABLE_AUDIT_LOGGING: true,
  ENABLE_NOTIFICATIONS: true,
  ENABLE_REPORTS: true,
  ENABLE_BULK_OPERATIONS: true,
  ENABLE_MULTI_TENANT_VIEW: true,
  ENABLE_GLOBAL_EXPORT: false,
  ENABLE_REAL_TIME_METRICS: false,
  ENABLE_ADVANCED_ANALYTICS: false,
};

export const $flags = atom<Record<string, boolean>>({ ...DEFAULT_FLAGS });
export const $flagsLoaded = atom(false);
let loading: Promise<void> | null = null;

export function loadFlags(): Promise<void> {
  loading ??= api
    .GET('/api/v1/admin/flags')
    .then(({ data }) => {
      if (data) $flags.set({ ...DEFAULT_FLAGS, ...data });
    })
    .catch(() => undefined)
    .finally(() => $flagsLoaded.set(true));
  return loading;
}

export function flagOn(name: string): boolean {
  return $flags.get()[name] ?? DEFAULT_FLAGS[name] ?? false;
}
