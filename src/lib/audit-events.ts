// Audit event names of section 9 of the spec (used by the console's logger and the server).
export const AUDIT_EVENTS = [
  'user_login', 'user_logout', 'session_expired', 'tenant_switch', 'tenant_create', 'tenant_update', 'tenant_delete',
  'user_create', 'user_update', 'user_delete', 'user_role_change', 'monitor_create', 'monitor_update', 'monitor_delete',
  'monitor_pause', 'monitor_resume', 'data_export', 'metrics_export', 'traces_export', 'incidents_export',
  'settings_update', 'settings_export', 'security_scan_trigger', 'vulnerability_view', 'threat_intel_view',
  'api_intel_view', 'api_intel_export', 'error_occurred', 'permission_denied', 'feature_access', 'feature_disabled',
] as const;

export type AuditEventName = (typeof AUDIT_EVENTS)[number];
