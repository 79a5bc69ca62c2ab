// Row types of the single sign-on tables (migration 0010).
export interface CompanySsoTable {
  company_id: string;
  /** 'oidc' (SAML to come): which exchange module reads `settings` */
  protocol: string;
  /** JSON: the protocol's settings (OIDC: issuer, client_id, scopes) and the role mapping */
  settings: string;
  /** sealed (secret-box) client secret; null: a public client */
  client_secret: string | null;
  /** JSON string[]: lower-case e-mail domains it signs in for (each verified by the company) */
  domains: string;
  require_sso: boolean;
  break_glass_user_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface SsoRequestsTable {
  id: string;
  state_hash: string;
  company_id: string;
  protocol: string;
  nonce: string;
  code_verifier: string;
  /** the host the sign-in started on (the callback must come back there) */
  host: string;
  /** a path on that host to land on: '/dashboard' or a private status page */
  return_to: string;
  remember: boolean;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** The SAML replay cache (migration 0011): an assertion ID accepted once per company until it expires. */
export interface SamlAssertionsSeenTable {
  company_id: string;
  assertion_id: string;
  /** the assertion's NotOnOrAfter (ms): past it, the assertion is refused as expired anyway */
  expires_at: number;
}

/** Users a company's SSO created just in time (migration 0011): their role follows the group mapping. */
export interface SsoJitUsersTable {
  user_id: string;
  company_id: string;
  protocol: string;
  subject: string;
  created_at: number;
}

export interface SsoTables {
  company_sso: CompanySsoTable;
  sso_requests: SsoRequestsTable;
  saml_assertions_seen: SamlAssertionsSeenTable;
  sso_jit_users: SsoJitUsersTable;
}
