// The role table of section 6 of the spec: one module, used by the server to enforce and by the
// console to hide. Pure; imports nothing.
export const ACTIONS = ['view', 'create', 'update', 'delete', 'export'] as const;
export type Action = (typeof ACTIONS)[number];

export const RESOURCES = [
  'tenants',
  'users',
  'monitors',
  'metrics',
  'traces',
  'settings',
  'api_intelligence',
  'threat_intelligence',
  'vulnerability_scans',
  'domain_checks',
  'ssl_monitoring',
  'notifications',
  'reports',
] as const;
export type Resource = (typeof RESOURCES)[number];

export type Role = 'super_admin' | 'customer_admin' | 'customer_viewer';

const ALL: readonly Action[] = ACTIONS;
const VCU: readonly Action[] = ['view', 'create', 'update'];
const V: readonly Action[] = ['view'];

const CUSTOMER_ADMIN: Record<Resource, readonly Action[]> = {
  tenants: [],
  users: ['view', 'update'],
  monitors: VCU,
  settings: VCU,
  api_intelligence: VCU,
  threat_intelligence: VCU,
  vulnerability_scans: VCU,
  domain_checks: VCU,
  ssl_monitoring: VCU,
  notifications: VCU,
  reports: VCU,
  metrics: V,
  traces: V,
};

// Company viewers (user_type 3) read their own company's data (their team included) and change nothing but their own
// notifications (marking read, preferences).
const CUSTOMER_VIEWER: Record<Resource, readonly Action[]> = {
  tenants: [],
  users: V,
  monitors: V,
  settings: [],
  api_intelligence: V,
  threat_intelligence: V,
  vulnerability_scans: V,
  domain_checks: V,
  ssl_monitoring: V,
  notifications: ['view', 'update'],
  reports: V,
  metrics: V,
  traces: V,
};

export function can(role: string | null | undefined, action: Action, resource: Resource): boolean {
  if (role === 'super_admin') return ALL.includes(action);
  if (role === 'customer_admin') return CUSTOMER_ADMIN[resource]?.includes(action) ?? false;
  if (role === 'customer_viewer') return CUSTOMER_VIEWER[resource]?.includes(action) ?? false;
  return false;
}

/** user_type ('1' | '2' | '3') to role; anything else has no role and so no rights. */
export function roleOfUserType(userType: number | string | null | undefined): Role | null {
  switch (String(userType)) {
    case '1':
      return 'super_admin';
    case '2':
      return 'customer_admin';
    case '3':
      return 'customer_viewer';
    default:
      return null;
  }
}

export const USER_TYPE_LABELS: Record<string, string> = { '1': 'Super Admin', '2': 'Company Admin', '3': 'User/Viewer' };
