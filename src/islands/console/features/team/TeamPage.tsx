// /team: the company's users and pending invitations with name, e-mail, type, status and last
// sign-in. Company admins rename, switch admin <-> viewer, deactivate and reactivate (never
// themselves), and invite, resend and revoke while the platform lets them (else the page says
// whom to ask); super admins also invite to any company; viewers read only (no buttons).
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can, USER_TYPE_LABELS } from '../../../../lib/permissions.ts';
import { $role, $user } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { Field } from '../../ui/Field.tsx';
import { FormAlert, ModalActions, Options, useModalForm } from '../../ui/ModalForm.tsx';
import { fmtTime } from '../../ui/format.ts';
import { Confirm, Modal } from '../../ui/Modal.tsx';
import { ListPage } from '../../ui/ListPage.tsx';
import {
  $inviteCompanies,
  $invitePolicy,
  $team,
  $teamAlert,
  invite,
  loadInviteCompanies,
  loadInvitePolicy,
  loadTeam,
  renameUser,
  resendInvitation,
  revokeInvitation,
  setUserActive,
  setUserType,
  STATUS_LABELS,
  validateInvite,
  type Company,
  type InviteForm,
  type Member,
  type User,
} from './store.ts';

const PILL: Record<Member['status'], string> = { active: 'sw-green', deactivated: 'sw-grey', invited: 'sw-amber', expired: 'sw-grey' };

export function TeamPage() {
  const role = useStore($role);
  const me = useStore($user);
  const tenant = useStore($selectedTenant);
  const team = useStore($team);
  const alert = useStore($teamAlert);
  const policy = useStore($invitePolicy);
  const isSuper = role === 'super_admin';
  const mayEdit = can(role, 'update', 'users');
  const ready = policy.status === 'ready' ? policy.data : null;
  const mayInvite = isSuper || ready?.may_invite === true;
  // resending sends a new link: as inviting; revoking only takes access away
  const mayResend = isSuper || (role === 'customer_admin' && ready?.company_admins_invite === true);
  const companies = useStore($inviteCompanies);
  const [renaming, setRenaming] = useState<User | null>(null);
  const [deactivating, setDeactivating] = useState<User | null>(null);
  const [inviting, setInviting] = useState(false);
  const companyFilter = isSuper ? tenant : null;
  useEffect(() => {
    $teamAlert.set(null);
    void loadTeam(companyFilter);
  }, [companyFilter]);
  useEffect(() => {
    if (role && !isSuper) void loadInvitePolicy();
  }, [role, isSuper]);
  useEffect(() => {
    if (isSuper) void loadInviteCompanies();
  }, [isSuper]);
  const open = (fn: () => void) => () => {
    $teamAlert.set(null);
    fn();
  };
  const columns = ['Name', 'Email', 'Type', ...(isSuper ? ['Company'] : []), 'Status', 'Last sign-in', ...(mayEdit ? ['Actions'] : [])];
  const actions = (m: Member) => {
    if (m.kind === 'invitation') {
      const i = m.invitation;
      return isSuper || role === 'customer_admin' ? (
        <>
          {mayResend && (
            <button
              type="button"
              className="sw-btn sw-btn-small"
              aria-label={`Resend invitation to ${i.email}`}
              onClick={open(() => void resendInvitation(i))}
            >
              Resend
            </button>
          )}
          <button
            type="button"
            className="sw-btn sw-btn-small sw-btn-danger"
            aria-label={`Revoke invitation to ${i.email}`}
            onClick={open(() => void revokeInvitation(i))}
          >
            Revoke
          </button>
        </>
      ) : null;
    }
    const u = m.user;
    const self = u.id === me?.id;
    // super admins are changed on Users Management, not here
    if (u.user_type === '1') return null;
    return (
      <>
        <button type="button" className="sw-btn sw-btn-small" aria-label={`Rename ${u.email}`} onClick={open(() => setRenaming(u))}>
          Rename
        </button>
        {!self && (
          <button
            type="button"
            className="sw-btn sw-btn-small"
            aria-label={`${u.user_type === '2' ? 'Make viewer' : 'Make admin'}: ${u.email}`}
            onClick={open(() => void setUserType(u, u.user_type === '2' ? '3' : '2'))}
          >
            {u.user_type === '2' ? 'Make viewer' : 'Make admin'}
          </button>
        )}
        {!self &&
          (u.is_active ? (
            <button
              type="button"
              className="sw-btn sw-btn-small sw-btn-danger"
              aria-label={`Deactivate ${u.email}`}
              onClick={open(() => setDeactivating(u))}
            >
              Deactivate
            </button>
          ) : (
            <button
              type="button"
              className="sw-btn sw-btn-small"
              aria-label={`Reactivate ${u.email}`}
              onClick={open(() => void setUserActive(u, true))}
            >
              Reactivate
            </button>
          ))}
      </>
    );
  };
  return (
    <ListPage
      crumb="Team"
      title="Team"
      createLabel={mayInvite ? 'Invite user' : undefined}
      onCreate={mayInvite ? open(() => setInviting(true)) : undefined}
      note={
        [mayEdit ? null : 'You can see your team; only company admins change it.', mayInvite ? null : ready?.ask]
          .filter(Boolean)
          .join(' ') || undefined
      }
      alert={renaming || inviting ? null : alert}
      load={team}
      onRetry={() => void loadTeam()}
      listTitle="Members"
      listId="team-members"
      empty="No users yet."
      columns={columns}
      row={(m) => {
        const name = m.kind === 'user' ? m.user.full_name : m.invitation.full_name;
        const email = m.kind === 'user' ? m.user.email : m.invitation.email;
        const type = m.kind === 'user' ? m.user.user_type : m.invitation.user_type;
        const company = m.kind === 'user' ? m.user.company_name : m.invitation.company_name;
        const last =
          m.kind === 'user'
            ? fmtTime(m.user.last_sign_in_at, 'Never')
            : `Invited ${fmtTime(m.invitation.sent_at, '')}${m.status === 'expired' ? '' : `, link valid until ${fmtTime(m.invitation.expires_at, '')}`}`;
        return {
          key: m.id,
          cells: [
            name,
            email,
            <span className={`sw-badge sw-type-${type}`}>{USER_TYPE_LABELS[type] ?? type}</span>,
            ...(isSuper ? [company ?? 'N/A'] : []),
            <span className={`sw-pill ${PILL[m.status]}`}>{STATUS_LABELS[m.status]}</span>,
            last,
            ...(mayEdit ? [actions(m)] : []),
          ],
        };
      }}
    >
      {renaming && <RenameModal user={renaming} onClose={() => setRenaming(null)} />}
      {inviting && (
        <InviteModal
          companies={companies}
          preset={isSuper ? companyFilter : (me?.company_id ?? null)}
          chooseCompany={isSuper}
          onClose={() => setInviting(false)}
        />
      )}
      {deactivating && (
        <Confirm
          title="Deactivate user"
          danger
          confirmLabel="Deactivate"
          text={`Deactivate ${deactivating.full_name} (${deactivating.email})? They are signed out at once and cannot sign in until reactivated.`}
          onCancel={() => setDeactivating(null)}
          onConfirm={() => {
            const u = deactivating;
            setDeactivating(null);
            void setUserActive(u, false);
          }}
        />
      )}
    </ListPage>
  );
}

function ModalAlert() {
  const alert = useStore($teamAlert);
  return <FormAlert text={alert && !alert.ok ? alert.text : null} />;
}

function RenameModal({ user, onClose }: { user: User; onClose: () => void }) {
  const { f, errors, busy, edit, send } = useModalForm({ name: user.full_name });
  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await send(f.name.trim() ? {} : { name: 'Full Name is required' }, () => renameUser(user, f.name));
    if (ok) onClose();
  }
  return (
    <Modal title="Rename user" onClose={onClose}>
      <form className="sw-form" onSubmit={submit} noValidate>
        <ModalAlert />
        <Field id="t-name" label="Full Name" required error={errors.name}>
          <input id="t-name" value={f.name} onChange={(e) => edit({ name: e.target.value }, 'name')} required maxLength={200} />
        </Field>
        <ModalActions onClose={onClose} busy={busy} submitLabel="Save" />
      </form>
    </Modal>
  );
}

function InviteModal({
  companies,
  preset,
  chooseCompany,
  onClose,
}: {
  companies: Company[];
  preset: string | null;
  /** super admins pick the company; a company admin invites to their own */
  chooseCompany: boolean;
  onClose: () => void;
}) {
  const { f, setF, errors, busy, edit, send } = useModalForm<InviteForm>({ email: '', name: '', companyId: preset ?? '', userType: '3' });
  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await send(validateInvite(f), () => invite(f));
    if (ok) onClose();
  }
  return (
    <Modal title="Invite user" onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <ModalAlert />
        <p className="sw-span-2 sw-muted">They get an e-mail with a link, valid for 7 days, to choose their own password.</p>
        <Field id="i-name" label="Full Name" required error={errors.name}>
          <input id="i-name" value={f.name} onChange={(e) => edit({ name: e.target.value }, 'name')} required maxLength={200} />
        </Field>
        <Field id="i-email" label="Email" required error={errors.email}>
          <input id="i-email" type="email" value={f.email} onChange={(e) => edit({ email: e.target.value }, 'email')} required />
        </Field>
        {chooseCompany && (
          <Field id="i-company" label="Company" required error={errors.companyId}>
            <select id="i-company" value={f.companyId} onChange={(e) => edit({ companyId: e.target.value }, 'companyId')} required>
              <option value="">Select a company</option>
              <Options items={companies.map((c) => [c.id, c.name])} />
            </select>
          </Field>
        )}
        <Field id="i-type" label="Role" required>
          <select id="i-type" value={f.userType} onChange={(e) => setF({ ...f, userType: e.target.value as InviteForm['userType'] })}>
            <option value="2">{USER_TYPE_LABELS['2']}</option>
            <option value="3">{USER_TYPE_LABELS['3']}</option>
          </select>
        </Field>
        <ModalActions onClose={onClose} busy={busy} submitLabel="Send invitation" />
      </form>
    </Modal>
  );
}
