// The platform setting "company admins may invite teammates" (issue 25 item 5). The spec's role
// table gives creating users to the super admin only, and stays the default of a platform without
// self-service signup; a platform whose companies sign themselves up must let their admins bring
// in their team, so the setting starts on when SIGNUP_ENABLED is. A super admin changes it on the
// Platform settings screen; the choice is kept in platform_state, shared by every process.
import type { Ctx, Services } from '../context.ts';
import { requireSuperAdmin } from '../authz.ts';
import { platformStateRepo } from '../../db/repositories/platform-state-repo.ts';
import { auditFromCtx } from '../audit/record.ts';
import { withTransaction } from '../../db/scope.ts';

const STATE_NAME = 'company-admin-invitations';

export interface TeamInvitationsSetting {
  enabled: boolean;
  /** 'default': follows SIGNUP_ENABLED (nobody chose yet); 'set': a super admin's choice */
  source: 'default' | 'set';
}

function parse(raw: string | undefined): boolean | null {
  if (raw === undefined) return null;
  try {
    const v = JSON.parse(raw) as { enabled?: unknown };
    return typeof v.enabled === 'boolean' ? v.enabled : null;
  } catch {
    return null;
  }
}

export async function teamInvitationsSetting(services: Services): Promise<TeamInvitationsSetting> {
  const stored = parse(await platformStateRepo(services.db).get(STATE_NAME));
  return stored === null ? { enabled: services.config.signupEnabled, source: 'default' } : { enabled: stored, source: 'set' };
}

export async function companyAdminsMayInvite(services: Services): Promise<boolean> {
  return (await teamInvitationsSetting(services)).enabled;
}

/** A super admin's choice, audited as settings_update with the value before and after. */
export async function setTeamInvitations(ctx: Ctx, enabled: boolean): Promise<TeamInvitationsSetting> {
  const actor = requireSuperAdmin(ctx);
  const value = JSON.stringify({ enabled, by: actor.userId });
  // compare-and-set on what was read: of two super admins saving at once, the later one wins cleanly
  for (let attempt = 0; attempt < 5; attempt++) {
    const raw = await platformStateRepo(ctx.services.db).get(STATE_NAME);
    const before = parse(raw) ?? ctx.services.config.signupEnabled;
    // the setting and its audit row commit together
    const saved = await withTransaction(ctx.services.db, async (tx) => {
      if (!(await platformStateRepo(tx).compareAndSet(STATE_NAME, raw, value, ctx.services.now()))) return false;
      await auditFromCtx(tx, ctx, 'settings_update', { company_admins_invite: { from: before, to: enabled } });
      return true;
    });
    if (saved) break;
  }
  return teamInvitationsSetting(ctx.services);
}
