import type { Generated } from 'kysely';

// Row types of the identity tables (migration 0001). Booleans are stored 0/1 and read as booleans (db/booleans.ts), times are ms.
export interface CompaniesTable {
  id: string;
  name: string;
  email: string;
  url: string | null;
  phone: string | null;
  subdomain: string | null;
  slug: string | null;
  status: Generated<string>;
  primary_color: Generated<string>;
  secondary_color: Generated<string>;
  services: Generated<string>;
  company_metadata: string | null;
  is_active: Generated<boolean>;
  max_users: Generated<number>;
  max_workers: Generated<number>;
  threat_feed_enabled: Generated<boolean>;
  /** JSON array of location slugs new monitors and monitors without their own use (migration 0119); null: local */
  default_locations: Generated<string | null>;
  /** one of PUBLIC_LOCALES, the public pages' default language (migration 0303) */
  default_language: Generated<string>;
  /** JSON array of the languages the status page offers (migration 0303); null: the default alone */
  status_page_languages: Generated<string | null>;
  /** IANA time zone of the status page (migration 0303); null: UTC */
  status_page_time_zone: Generated<string | null>;
  horizontal_logo_base64: string | null;
  logo_base64: string | null;
  plan: Generated<string>;
  created_at: number;
  updated_at: number;
  /** The status page shows the security panel of its verified domains (migration 0311) */
  public_security_panel: Generated<boolean>;
}

export interface UsersTable {
  id: string;
  email: string;
  full_name: string;
  user_type: number;
  company_id: string | null;
  is_active: Generated<boolean>;
  password_hash: string;
  session_version: Generated<number>;
  /** E.164, for personal SMS alerts (migration 0501); null: none */
  phone: string | null;
  /** The user's personal webhook (migration 0501), signed with webhook_secret (whsec_…) */
  webhook_url: string | null;
  webhook_secret: string | null;
  created_at: number;
  updated_at: number;
  /** migration 0004; null until the first sign-in */
  last_login_at: number | null;
}

export interface RefreshTokensTable {
  id: string;
  family_id: string;
  user_id: string;
  token_hash: string;
  host: string;
  remember: Generated<boolean>;
  user_agent: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

export interface NotificationsTable {
  id: string;
  company_id: string | null;
  user_id: string;
  title: string;
  message: string;
  details: string | null;
  metadata: string | null;
  severity: string;
  type: string;
  is_read: Generated<boolean>;
  action_url: string | null;
  dedupe_key: string | null;
  created_at: number;
}

export interface NotificationPreferencesTable {
  user_id: string;
  email_enabled: Generated<boolean>;
  sms_enabled: Generated<boolean>;
  webhook_enabled: Generated<boolean>;
  monitor_incidents: Generated<boolean>;
  ssl_warnings: Generated<boolean>;
  dns_warnings: Generated<boolean>;
  security_alerts: Generated<boolean>;
  system_notifications: Generated<boolean>;
  updated_at: number;
}

export interface AuditEventsTable {
  id: string;
  event: string;
  details: string | null;
  timestamp: number;
  user_id: string | null;
  user_role: string | null;
  tenant_id: string | null;
  session_id: string | null;
  user_agent: string | null;
  ip: string | null;
  source: string;
}

export interface FeatureFlagsTable {
  name: string;
  enabled: boolean;
  updated_at: number;
  updated_by: string | null;
}

export interface AuthCodesTable {
  id: string;
  kind: 'handoff' | 'reset' | 'unlock';
  code_hash: string;
  user_id: string;
  host: string;
  remember: Generated<boolean>;
  session_version: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface PendingSignupsTable {
  id: string;
  code_hash: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** Migration 0006: the company's name and chosen subdomain (null on older rows: from `name`) */
  company_name: string | null;
  subdomain: string | null;
}

/** Migration 0004: a super admin's invitation to join a company (pending until used or revoked). */
export interface InvitationsTable {
  id: string;
  company_id: string;
  email: string;
  full_name: string;
  user_type: number;
  token_hash: string;
  invited_by: string | null;
  created_at: number;
  sent_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

/** Migration 0005: a user's token for the management API (only its SHA-256 hash is kept). */
export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  scope: 'read' | 'write';
  token_hash: string;
  /** the token's first characters, to tell tokens apart */
  token_prefix: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** Migration 0005: a user's authenticator (TOTP); enabled_at null while enrolment is pending. */
export interface UserTotpTable {
  user_id: string;
  /** AES-256-GCM of the base32 secret (iv.tag.ciphertext, base64url), key from SESSION_SECRET */
  secret_enc: string;
  created_at: number;
  enabled_at: number | null;
  /** the latest accepted RFC 6238 time step (replay guard) */
  last_step: number | null;
}

/** Migration 0005: one-time recovery codes (SHA-256 hashes). */
export interface TotpRecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

/** A user's console look; no row means the spec's defaults (lib/ui-settings.ts). */
export interface UiSettingsTable {
  user_id: string;
  theme: string;
  font: string;
  light_version: boolean;
  updated_at: number;
  /** Migration 0015: the console's language ('en' | 'de'); null follows the browser */
  language: string | null;
}

/** Migration 0014: a user's passkeys (WebAuthn credentials), several per user. */
export interface UserPasskeysTable {
  id: string;
  user_id: string;
  /** the authenticator's credential id, base64url */
  credential_id: string;
  /** COSE public key, base64url */
  public_key: string;
  /** the latest signature counter seen (a lower one is a cloned authenticator) */
  counter: number;
  /** JSON array of the transports the browser reported */
  transports: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** Migration 0014: issued WebAuthn challenges, single use, short-lived. */
export interface WebauthnChallengesTable {
  id: string;
  challenge: string;
  purpose: 'register' | 'authenticate';
  user_id: string | null;
  host: string;
  created_at: number;
  expires_at: number;
}

export interface IdentityTables {
  companies: CompaniesTable;
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  audit_events: AuditEventsTable;
  feature_flags: FeatureFlagsTable;
  auth_codes: AuthCodesTable;
  pending_signups: PendingSignupsTable;
  invitations: InvitationsTable;
  api_tokens: ApiTokensTable;
  user_totp: UserTotpTable;
  totp_recovery_codes: TotpRecoveryCodesTable;
  ui_settings: UiSettingsTable;
  user_passkeys: UserPasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
}
