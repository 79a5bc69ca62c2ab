// The Team screen: the company's users and its pending invitations as one list (a super admin
// sees the selected company's, or every company's), and the changes the role table allows:
// rename, admin <-> viewer, deactivate/reactivate (company admins and super admins), invite,
// resend and revoke (super admins; company admins while the platform lets them, issue 25 item 5,
// with whom to ask otherwise). The server enforces all of it; this only hides buttons.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { isEmail } from '../../../../lib/formats.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { changeThenReload, dataOrLog, inAlert, loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

export type User = components['schemas']['User'];
export type Invitation = components['schemas']['Invitation'];
export type InvitePolicy = components['schemas']['InvitePolicy'];
export type Company = components['schemas']['Company'];

/** One row: a user, or a person invited who has no account yet. */
export type Member =
  | { kind: 'user'; id: string; user: User; status: 'active' | 'deactivated' }
  | { kind: 'invitation'; id: string; invitation: Invitation; status: 'invited' | 'expired' };

/** A member's status as the list shows it */
export function statusLabel(status: Member['status']): string {
  return {
    active: t('team.status.active'),
    deactivated: t('team.status.deactivated'),
    invited: t('team.status.invited'),
    expired: t('team.status.expired'),
  }[status];
}

export const $team = atom<Load<Member[]>>({ status: 'loading' });
export const $teamAlert = atom<Alert | null>(null);
/** Whether the signed-in user may invite now, and whom to ask otherwise */
export const $invitePolicy = atom<Load<InvitePolicy>>({ status: 'loading' });

/** The companies a super admin may invite to (the invitation form's choice); a failure is only logged. */
export const $inviteCompanies = atom<Company[]>([]);

export async function loadInviteCompanies(): Promise<void> {
  const data = await dataOrLog(() => api.GET('/api/v1/admin/companies'), 'Failed to load companies for the invitation form');
  if (data) $inviteCompanies.set(data);
}

export function loadInvitePolicy(): Promise<void> {
  return loadInto($invitePolicy, () => api.GET('/api/v1/company/invite-policy'), serverOr(t('team.loadPolicyFailed')));
}

let lastCompany: string | null = null;

/** Invitations first (they wait for someone), then users as the server orders them. */
export function membersOf(users: User[], invitations: Invitation[]): Member[] {
  return [
    ...invitations.map((i): Member => ({ kind: 'invitation', id: `i-${i.id}`, invitation: i, status: i.status })),
    ...users.map((u): Member => ({ kind: 'user', id: u.id, user: u, status: u.is_active ? 'active' : 'deactivated' })),
  ];
}

/** companyId: a super admin's chosen company (null: all); company users always get their own. */
export async function loadTeam(companyId: string | null = lastCompany): Promise<void> {
  lastCompany = companyId;
  const query = companyId ? { company_id: companyId } : {};
  const failed = serverOr(t('team.loadFailed'));
  $team.set({ status: 'loading' });
  try {
    const [users, invitations] = await Promise.all([
      api.GET('/api/v1/admin/users', { params: { query } }),
      api.GET('/api/v1/admin/invitations', { params: { query } }),
    ]);
    if (users.data && invitations.data) $team.set({ status: 'ready', data: membersOf(users.data, invitations.data) });
    else
      $team.set({
        status: 'error',
        message: failed(users.error ?? invitations.error),
        httpStatus: (users.response ?? invitations.response)?.status,
      });
  } catch (e) {
    $team.set({ status: 'error', message: failed(e) });
  }
}

function change(done: string, failed: string, call: () => Promise<{ data?: unknown; error?: unknown }>): Promise<boolean> {
  // an invitation sent or revoked changes the room left under Max Users too
  return changeThenReload(call, inAlert($teamAlert, done, failed), () =>
    Promise.all([loadTeam(), $invitePolicy.get().status === 'ready' ? loadInvitePolicy() : undefined]).then(() => undefined),
  );
}

/** The whole user as the update call takes it, with one change applied. */
function updateBody(u: User, patch: { name?: string; user_type?: '2' | '3'; is_active?: boolean }) {
  return {
    name: patch.name ?? u.full_name,
    email: u.email,
    user_type: patch.user_type ?? (u.user_type as '2' | '3'),
    company_id: u.company_id,
    is_active: patch.is_active ?? u.is_active,
  };
}

function updateUser(u: User, patch: Parameters<typeof updateBody>[1], done: string): Promise<boolean> {
  return change(done, t('team.updateFailed'), () =>
    api.PUT('/api/v1/admin/users/{id}', { params: { path: { id: u.id } }, body: updateBody(u, patch) }),
  );
}

export const renameUser = (u: User, name: string) => updateUser(u, { name: name.trim() }, t('team.renamed', { name: name.trim() }));
export const setUserType = (u: User, type: '2' | '3') =>
  updateUser(u, { user_type: type }, type === '2' ? t('team.nowAdmin', { name: u.full_name }) : t('team.nowViewer', { name: u.full_name }));
export const setUserActive = (u: User, active: boolean) =>
  updateUser(
    u,
    { is_active: active },
    active ? t('team.reactivated', { name: u.full_name }) : t('team.deactivated', { name: u.full_name }),
  );

export interface InviteForm {
  email: string;
  name: string;
  companyId: string;
  userType: '2' | '3';
}

export function validateInvite(f: InviteForm): Record<string, string> {
  const e: Record<string, string> = {};
  if (!f.name.trim()) e.name = t('team.form.nameRequired');
  if (!f.email.trim()) e.email = t('team.form.emailRequired');
  else if (!isEmail(f.email.trim())) e.email = t('team.form.emailInvalid');
  if (!f.companyId) e.companyId = t('team.form.companyRequired');
  return e;
}

export function invite(f: InviteForm): Promise<boolean> {
  return change(t('team.invite.sent', { email: f.email.trim() }), t('team.invite.sendFailed'), () =>
    api.POST('/api/v1/admin/invitations', {
      body: { email: f.email.trim(), name: f.name.trim(), company_id: f.companyId, user_type: f.userType },
    }),
  );
}

export function resendInvitation(i: Invitation): Promise<boolean> {
  return change(t('team.invite.resent', { email: i.email }), t('team.invite.resendFailed'), () =>
    api.POST('/api/v1/admin/invitations/{id}/resend', { params: { path: { id: i.id } } }),
  );
}

export function revokeInvitation(i: Invitation): Promise<boolean> {
  return change(t('team.invite.revoked', { email: i.email }), t('team.invite.revokeFailed'), () =>
    api.DELETE('/api/v1/admin/invitations/{id}', { params: { path: { id: i.id } } }),
  );
}
