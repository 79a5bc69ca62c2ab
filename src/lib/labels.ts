// The words people read for the product's codes: notification types, feature flags, audit events,
// roles, permission resources and the keys of audit details. One table, used by the console's
// screens and the server's messages, so no snake_case code or ENABLE_ name reaches a reader.
// Pure; imports nothing.

export const NOTIFICATION_TYPE_LABELS: Record<string, string> = {
  monitor_incident: 'Monitor incident',
  ssl_warning: 'SSL warning',
  dns_warning: 'DNS warning',
  security_report: 'Security report',
  system: 'System',
  anomaly: 'Anomaly',
};

export const SEVERITY_LABELS: Record<string, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
};

export const FLAG_LABELS: Record<string, string> = {
  ENABLE_TENANT_SWITCH: 'Tenant switching',
  ENABLE_USER_MGMT: 'User management',
  ENABLE_API_INTELLIGENCE: 'API intelligence',
  ENABLE_THREAT_INTELLIGENCE: 'Threat intelligence',
  ENABLE_VULNERABILITY_SCANS: 'Vulnerability scans',
  ENABLE_SSL_MONITORING: 'SSL monitoring',
  ENABLE_DOMAIN_CHECKS: 'Domain checks',
  ENABLE_AUDIT_LOGGING: 'Audit logging',
  ENABLE_NOTIFICATIONS: 'Notifications',
  ENABLE_REPORTS: 'Reports',
  ENABLE_BULK_OPERATIONS: 'Bulk operations',
  ENABLE_MULTI_TENANT_VIEW: 'Multi-tenant view',
  ENABLE_GLOBAL_EXPORT: 'Global export',
  ENABLE_REAL_TIME_METRICS: 'Real-time metrics',
  ENABLE_ADVANCED_ANALYTICS: 'Advanced analytics',
};

export const AUDIT_EVENT_LABELS: Record<string, string> = {
  user_login: 'User signed in',
  user_logout: 'User signed out',
  session_expired: 'Session expired',
  tenant_switch: 'Tenant switched',
  tenant_create: 'Company created',
  tenant_update: 'Company updated',
  tenant_delete: 'Company deleted',
  user_create: 'User created',
  user_update: 'User updated',
  user_delete: 'User deleted',
  user_role_change: 'User role changed',
  monitor_create: 'Monitor created',
  monitor_update: 'Monitor updated',
  monitor_delete: 'Monitor deleted',
  monitor_pause: 'Monitor paused',
  monitor_resume: 'Monitor resumed',
  data_export: 'Data exported',
  metrics_export: 'Metrics exported',
  traces_export: 'Traces exported',
  incidents_export: 'Incidents exported',
  settings_update: 'Settings updated',
  settings_export: 'Settings exported',
  security_scan_trigger: 'Security scan started',
  probe_location_create: 'Probe location created',
  probe_location_delete: 'Probe location deleted',
  probe_token_create: 'Probe token created',
  probe_token_revoke: 'Probe token revoked',
  vulnerability_view: 'Vulnerabilities viewed',
  threat_intel_view: 'Threat intelligence viewed',
  api_intel_view: 'API intelligence viewed',
  api_intel_export: 'API intelligence exported',
  error_occurred: 'Error occurred',
  permission_denied: 'Permission denied',
  feature_access: 'Feature opened',
  feature_disabled: 'Feature disabled',
  passkey_sign_in_failed: 'Passkey refused',
  sso_login_failed: 'Single sign-on refused',
  data_import: 'Import from another tool',
};

export const ROLE_LABELS: Record<string, string> = {
  super_admin: 'Super Administrator',
  customer_admin: 'Customer Admin',
  customer_viewer: 'Viewer',
};

/** The permission resources as a sentence names them ("You do not have permission to view traces."). */
export const RESOURCE_LABELS: Record<string, string> = {
  tenants: 'companies',
  users: 'users',
  monitors: 'monitors',
  metrics: 'metrics',
  traces: 'traces',
  settings: 'settings',
  api_intelligence: 'API intelligence',
  threat_intelligence: 'threat intelligence',
  vulnerability_scans: 'vulnerability scans',
  domain_checks: 'domain checks',
  ssl_monitoring: 'SSL monitoring',
  notifications: 'notifications',
  reports: 'reports',
};

/** Words a code is made of, written out where no table names it. */
const WORDS: Record<string, string> = {
  id: 'ID',
  ids: 'IDs',
  ip: 'IP',
  idn: 'IDN',
  tld: 'TLD',
  url: 'URL',
  ssl: 'SSL',
  dns: 'DNS',
  api: 'API',
  smtp: 'SMTP',
  http: 'HTTP',
};

/**
 * A code read as words: 'previous_tenant_id' and 'previousTenantId' both read 'Previous tenant ID',
 * 'ENABLE_X_Y' reads 'Enable x y'. For keys no table lists (audit details, say).
 */
export function humanize(code: string): string {
  const words = code
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .map((w) => WORDS[w.toLowerCase()] ?? w.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The label of `code` in `table`, else the code read as words. */
export function labelOf(table: Record<string, string>, code: string): string {
  return Object.hasOwn(table, code) ? table[code] : humanize(code);
}
