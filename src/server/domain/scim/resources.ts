// How a user and a group look to SCIM (RFC 7643 sections 4.1 and 4.2). userName is the user's
// e-mail, which is also their one work e-mail; `name` holds what the IdP sent (or the full name
// split for users made here), `displayName` the full name the console shows.
import { toIso } from '../ids.ts';
import type { ScimGroupRow, ScimUserRow } from '../../db/repositories/scim-repo.ts';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

export interface ScimUser {
  schemas: string[];
  id: string;
  externalId?: string;
  userName: string;
  name: { givenName?: string; familyName?: string; formatted: string };
  displayName: string;
  emails: Array<{ value: string; type: 'work'; primary: boolean }>;
  active: boolean;
  meta: { resourceType: 'User'; created: string; lastModified: string; location: string };
}

export interface ScimGroup {
  schemas: string[];
  id: string;
  externalId?: string;
  displayName: string;
  members?: Array<{ value: string; display: string; $ref: string }>;
  meta: { resourceType: 'Group'; created: string; lastModified: string; location: string };
}

export function toScimUser(u: ScimUserRow, base: string): ScimUser {
  const given = u.given_name ?? undefined;
  const family = u.family_name ?? undefined;
  return {
    schemas: [USER_SCHEMA],
    id: u.id,
    ...(u.external_id ? { externalId: u.external_id } : {}),
    userName: u.email,
    name: { ...(given ? { givenName: given } : {}), ...(family ? { familyName: family } : {}), formatted: u.full_name },
    displayName: u.full_name,
    emails: [{ value: u.email, type: 'work', primary: true }],
    active: u.is_active,
    meta: { resourceType: 'User', created: toIso(u.created_at), lastModified: toIso(u.updated_at), location: `${base}/Users/${u.id}` },
  };
}

export function toScimGroup(g: ScimGroupRow, members: Array<{ user_id: string; email: string }> | null, base: string): ScimGroup {
  return {
    schemas: [GROUP_SCHEMA],
    id: g.id,
    ...(g.external_id ? { externalId: g.external_id } : {}),
    displayName: g.display_name,
    ...(members ? { members: members.map((m) => ({ value: m.user_id, display: m.email, $ref: `${base}/Users/${m.user_id}` })) } : {}),
    meta: { resourceType: 'Group', created: toIso(g.created_at), lastModified: toIso(g.updated_at), location: `${base}/Groups/${g.id}` },
  };
}
