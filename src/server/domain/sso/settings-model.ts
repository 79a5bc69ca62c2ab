// The stored shape of a company's SSO settings (company_sso.settings JSON) and its role mapping:
// pure, so the sign-in and the settings screen read it the same way.
export type SsoRole = 'admin' | 'viewer';

export interface GroupRole {
  group: string;
  role: SsoRole;
}

interface RoleMapping {
  /** the ID-token claim (SAML: the attribute) holding the user's groups; null: no mapping, everyone gets default_role */
  group_claim: string | null;
  group_roles: GroupRole[];
  default_role: SsoRole;
}

export interface OidcSettings extends RoleMapping {
  protocol: 'oidc';
  issuer: string;
  client_id: string;
  scopes: string[];
}

/** SAML 2.0: the IdP's HTTP-Redirect SSO address, its entity id and signing certificates (PEM). */
export interface SamlSettings extends RoleMapping {
  protocol: 'saml';
  idp_sso_url: string;
  idp_entity_id: string;
  idp_certs: string[];
  /** the attribute holding the e-mail; null: the NameID (when it is an e-mail) */
  email_attribute: string | null;
  /** unsolicited responses (started at the IdP's dashboard) are accepted */
  allow_idp_initiated: boolean;
}

export type SsoSettings = OidcSettings | SamlSettings;

export function parseSsoSettings(json: string): SsoSettings {
  return JSON.parse(json) as SsoSettings;
}

/** The role of a user with these groups: admin when any mapped group says admin, else viewer when one says viewer, else the default. */
export function roleForGroups(mapping: RoleMapping, groups: readonly string[]): SsoRole {
  const have = new Set(groups);
  const roles = mapping.group_roles.filter((g) => have.has(g.group)).map((g) => g.role);
  if (roles.includes('admin')) return 'admin';
  if (roles.includes('viewer')) return 'viewer';
  return mapping.default_role;
}

/** users.user_type of a company role. */
export const USER_TYPE_OF_ROLE: Record<SsoRole, 2 | 3> = { admin: 2, viewer: 3 };
