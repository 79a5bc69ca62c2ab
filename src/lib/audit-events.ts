// Audit event names of section 9 of the spec (used by the console's logger and the server).
// The server records what it does itself (sign-ins, changes to users, companies, monitors and
// settings); a browser may report only what happens in its own view. A client may not send a
// server's name, so nobody can write a forged "user_create" or "user_login" into the log.
export const SERVER_AUDIT_EVENTS = [
  'user_login',
  'user_logout',
  'session_expired',
  'tenant_create',
  'tenant_update',
  'tenant_delete',
  'user_create',
  'user_update',
  'user_delete',
  'user_role_change',
  'monitor_create',
  'monitor_update',
  'monitor_delete',
  'monitor_pause',
  'monitor_resume',
  'settings_update',
  // Recorded by the scans service when it queues a scan: a browser must not forge one.
  'security_scan_trigger',
  // Probe locations and their tokens (domain/probes): a token minted or revoked is a credential change.
  'probe_location_create',
  'probe_location_delete',
  'probe_token_create',
  'probe_token_revoke',
  // A refused passkey (password-less or second factor), with why: recorded by the server only.
  'passkey_sign_in_failed',
  // A single sign-on attempt refused (issue 31), with the reason: the user only sees a short message.
  'sso_login_failed',
  // An import from another tool applied or stopped midway (issue 33), with its counts: each write is audited too.
  'data_import',
] as const;

export const CLIENT_AUDIT_EVENTS = [
  'tenant_switch',
  'data_export',
  'metrics_export',
  'traces_export',
  'incidents_export',
  'settings_export',
  'vulnerability_view',
  'threat_intel_view',
  'api_intel_view',
  'api_intel_export',
  'error_occurred',
  'permission_denied',
  'feature_access',
  'feature_disabled',
] as const;

export const AUDIT_EVENTS = [...SERVER_AUDIT_EVENTS, ...CLIENT_AUDIT_EVENTS] as const;

export type AuditEventName = (typeof AUDIT_EVENTS)[number];
export type ClientAuditEventName = (typeof CLIENT_AUDIT_EVENTS)[number];
