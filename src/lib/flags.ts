// Feature flags of section 9 of the spec with their defaults (the console falls back to these
// when the flag call fails).
export const DEFAULT_FLAGS = {
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
} as const;

export type FlagName = keyof typeof DEFAULT_FLAGS;
export type FlagMap = Record<FlagName, boolean>;

export const FLAG_NAMES = Object.keys(DEFAULT_FLAGS) as FlagName[];

export function isFlagName(name: string): name is FlagName {
  return Object.hasOwn(DEFAULT_FLAGS, name);
}
