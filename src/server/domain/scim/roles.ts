// Group membership sets the role. The company admin names an admin group and a viewer group
// (settings.ts); a user whose membership of a named group changes (added, removed, the group
// renamed or deleted, the names changed) gets the role their groups say now: admin when they are
// in the admin group (whatever else they are in), else viewer. Users no membership change
// touched keep the role they have, so the admin who set SCIM up is not demoted by turning it on.
// A role change ends the user's sessions (as a role change by an admin does) and is audited.
import type { AuditEventName } from '../../../lib/audit-events.ts';
import type { Services } from '../context.ts';
import type { DbScope } from '../../db/scope.ts';
import { scimRepo } from '../../db/repositories/scim-repo.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { endUserSessions } from '../auth/sessions.ts';

export type AuditWrite = (db: DbScope, event: AuditEventName, details: Record<string, unknown>) => Promise<void>;

export const ADMIN_TYPE = 2;
export const VIEWER_TYPE = 3;

/** Whether a group of this name decides roles under the company's settings. */
export async function decidesRoles(db: DbScope, companyId: string, names: Array<string | null | undefined>): Promise<boolean> {
  const s = await scimRepo(db).findSettings(companyId);
  return names.some((n) => !!n && (n === s?.admin_group || n === s?.viewer_group));
}

export async function applyRoleGroups(
  db: DbScope,
  services: Services,
  input: { companyId: string; groupNames?: string[]; userIds?: string[]; audit: AuditWrite },
): Promise<void> {
  const repo = scimRepo(db);
  const settings = await repo.findSettings(input.companyId);
  if (!settings?.admin_group && !settings?.viewer_group) return;
  const affected = new Set([...(input.userIds ?? []), ...(await repo.memberIdsOfGroupNames(input.companyId, input.groupNames ?? []))]);
  for (const userId of affected) {
    const user = await usersRepo(db).findById(userId);
    // another company's user, a super admin, or one deleted meanwhile: not this company's to set
    if (!user || user.company_id !== input.companyId || (user.user_type !== ADMIN_TYPE && user.user_type !== VIEWER_TYPE)) continue;
    const groups = await repo.groupNamesOf(userId);
    const type = settings.admin_group && groups.includes(settings.admin_group) ? ADMIN_TYPE : VIEWER_TYPE;
    if (type === user.user_type) continue;
    await usersRepo(db).update(userId, { user_type: type, updated_at: services.now() });
    await endUserSessions(services, userId, db);
    await input.audit(db, 'user_role_change', {
      source: 'scim',
      user_id: userId,
      from: { user_type: user.user_type, company_id: user.company_id },
      to: { user_type: type, company_id: user.company_id },
      groups,
    });
  }
}
