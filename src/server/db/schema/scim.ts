// SCIM provisioning (migration 0012): a company's SCIM token, its role-group settings, what SCIM
// keeps of each user, and the company's groups with their members.
export interface ScimTokensTable {
  id: string;
  company_id: string;
  /** SHA-256 of the token (domain/auth/tokens.ts hashSecret); the token itself is shown once */
  token_hash: string;
  token_prefix: string;
  created_by: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface ScimSettingsTable {
  company_id: string;
  admin_group: string | null;
  viewer_group: string | null;
  updated_at: number;
}

export interface ScimUsersTable {
  user_id: string;
  company_id: string;
  external_id: string | null;
  given_name: string | null;
  family_name: string | null;
  updated_at: number;
}

export interface ScimGroupsTable {
  id: string;
  company_id: string;
  display_name: string;
  external_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface ScimGroupMembersTable {
  group_id: string;
  user_id: string;
}

export interface ScimTables {
  scim_tokens: ScimTokensTable;
  scim_settings: ScimSettingsTable;
  scim_users: ScimUsersTable;
  scim_groups: ScimGroupsTable;
  scim_group_members: ScimGroupMembersTable;
}
