// Whether the signed-in user may invite people now, and if not whom to ask (issue 25 item 5):
// the Team screen and the dashboard's first-steps card offer an invitation only when the server
// would take it, and otherwise say who can add people instead.
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { requireActor } from '../authz.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { invitationsRepo } from '../../db/repositories/invitations-repo.ts';
import { companyAdminsMayInvite } from '../platform/team-invitations.ts';

export interface InvitePolicy {
  may_invite: boolean;
  company_admins_invite: boolean;
  /** The company's users and pending invitations against its Max Users (null for super admins) */
  users: { used: number; limit: number } | null;
  /** When may_invite is false: who adds people instead, in words */
  ask: string | null;
}

const ASK_OPERATOR = 'Only the platform administrator adds people here: ask them to invite your colleagues.';

export async function getInvitePolicy(ctx: Ctx): Promise<InvitePolicy> {
  const actor = requireActor(ctx);
  const { services } = ctx;
  const adminsInvite = await companyAdminsMayInvite(services);
  if (actor.role === 'super_admin') return { may_invite: true, company_admins_invite: adminsInvite, users: null, ask: null };
  if (!actor.companyId) throw new DomainError('not_found', 'Your account is not assigned to a company.');
  const company = await companiesRepo(services.db).findById(actor.companyId);
  if (!company) throw new DomainError('not_found', 'Company not found');
  const people = await usersRepo(services.db).list({ companyId: company.id });
  const used = people.length + (await invitationsRepo(services.db).countOpenForCompany(company.id, services.now()));
  const users = { used, limit: company.max_users };
  if (actor.role === 'customer_viewer') {
    const admins = people.filter((u) => u.user_type === 2 && u.is_active).map((u) => u.full_name);
    const who =
      adminsInvite && admins.length
        ? `a company admin (${admins.slice(0, 3).join(', ')}${admins.length > 3 ? ', …' : ''})`
        : 'the platform administrator';
    return { may_invite: false, company_admins_invite: adminsInvite, users, ask: `To add someone, ask ${who} to invite them.` };
  }
  if (!adminsInvite) return { may_invite: false, company_admins_invite: false, users, ask: ASK_OPERATOR };
  if (used >= company.max_users)
    return {
      may_invite: false,
      company_admins_invite: true,
      users,
      ask: `${company.name} has ${used} of ${company.max_users} users (pending invitations count): ask the platform administrator to raise Max Users to invite more.`,
    };
  return { may_invite: true, company_admins_invite: true, users, ask: null };
}
