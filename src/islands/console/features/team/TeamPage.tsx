// /team: the company's users and pending invitations with name, e-mail, type, status and last
// sign-in. Company admins rename, switch admin <-> viewer, deactivate and reactivate (never
// themselves), and invite, resend and revoke while the platform lets them (else the page says
// whom to ask); super admins also invite to any company; viewers read only (no buttons).
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { t } from '../../i18n.ts';
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
  statusLabel,
  validateInvite,
  type Company,
  type InviteForm,
  type Member,
  type User,
} from './store.ts';

/** A user type as the console shows it ('1' super admin, '2' company admin, '3' viewer) */
function typeLabel(type: string): string {
  if (type === '1') return t('team.type.superAdmin');
  if (type === '2') return t('team.type.companyAdmin');
  if (type === '3') return t('team.type.viewer');
  return type;
}

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
  const columns = [
    t('team.col.name'),
    t('team.col.email'),
    t('team.col.type'),
    ...(isSuper ? [t('team.col.company')] : []),
    t('team.col.status'),
    t('team.col.lastSignIn'),
    ...(mayEdit ? [t('team.col.actions')] : []),
  ];
  const actions = (m: Member) => {
    if (m.kind === 'invitation') {
      const i = m.invitation;
      return isSuper || role === 'customer_admin' ? (
        <>
          {mayResend && (
            <button
              type="button"
              className="sw-btn sw-btn-small"
              aria-label={t('team.invite.resendAria', { email: i.email })}
              onClick={open(() => void resendInvitation(i))}
            >
              {t('team.invite.resend')}
            </button>
          )}
          <button
            type="button"
            className="sw-btn sw-btn-small sw-btn-danger"
            aria-label={t('team.invite.revokeAria', { email: i.email })}
            onClick={open(() => void revokeInvitation(i))}
          >
            {t('team.invite.revoke')}
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
        <button
          type="button"
          className="sw-btn sw-btn-small"
          aria-label={t('team.renameAria', { email: u.email })}
          onClick={open(() => setRenaming(u))}
        >
          {t('team.rename')}
        </button>
        {!self && (
          <button
            type="button"
            className="sw-btn sw-btn-small"
            aria-label={u.user_type === '2' ? t('team.makeViewerAria', { email: u.email }) : t('team.makeAdminAria', { email: u.email })}
            onClick={open(() => void setUserType(u, u.user_type === '2' ? '3' : '2'))}
          >
            {u.user_type === '2' ? t('team.makeViewer') : t('team.makeAdmin')}
          </button>
        )}
        {!self &&
          (u.is_active ? (
            <button
              type="button"
              className="sw-btn sw-btn-small sw-btn-danger"
              aria-label={t('team.deactivateAria', { email: u.email })}
              onClick={open(() => setDeactivating(u))}
            >
              {t('team.deactivate')}
            </button>
          ) : (
            <button
              type="button"
              className="sw-btn sw-btn-small"
              aria-label={t('team.reactivateAria', { email: u.email })}
              onClick={open(() => void setUserActive(u, true))}
            >
              {t('team.reactivate')}
            </button>
          ))}
      </>
    );
  };
  return (
    <ListPage
      crumb={t('team.title')}
      title={t('team.title')}
      createLabel={mayInvite ? t('team.invite.create') : undefined}
      onCreate={mayInvite ? open(() => setInviting(true)) : undefined}
      note={[mayEdit ? null : t('team.readOnlyNote'), mayInvite ? null : ready?.ask].filter(Boolean).join(' ') || undefined}
      alert={renaming || inviting ? null : alert}
      load={team}
      onRetry={() => void loadTeam()}
      listTitle={t('team.listTitle')}
      listId="team-members"
      empty={t('team.empty')}
      columns={columns}
      row={(m) => {
        const name = m.kind === 'user' ? m.user.full_name : m.invitation.full_name;
        const email = m.kind === 'user' ? m.user.email : m.invitation.email;
        const type = m.kind === 'user' ? m.user.user_type : m.invitation.user_type;
        const company = m.kind === 'user' ? m.user.company_name : m.invitation.company_name;
        const last =
          m.kind === 'user'
            ? fmtTime(m.user.last_sign_in_at, t('team.never'))
            : m.status === 'expired'
              ? t('team.invitedAt', { sent: fmtTime(m.invitation.sent_at, '') })
              : t('team.invitedUntil', { sent: fmtTime(m.invitation.sent_at, ''), expires: fmtTime(m.invitation.expires_at, '') });
        return {
          key: m.id,
          cells: [
            name,
            email,
            <span className={`sw-badge sw-type-${type}`}>{typeLabel(type)}</span>,
            ...(isSuper ? [company ?? t('team.noCompany')] : []),
            <span className={`sw-pill ${PILL[m.status]}`}>{statusLabel(m.status)}</span>,
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
          title={t('team.deactivateTitle')}
          danger
          confirmLabel={t('team.deactivate')}
          text={t('team.deactivateText', { name: deactivating.full_name, email: deactivating.email })}
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
    const ok = await send(f.name.trim() ? {} : { name: t('team.form.nameRequired') }, () => renameUser(user, f.name));
    if (ok) onClose();
  }
  return (
    <Modal title={t('team.renameTitle')} onClose={onClose}>
      <form className="sw-form" onSubmit={submit} noValidate>
        <ModalAlert />
        <Field id="t-name" label={t('team.form.name')} required error={errors.name}>
          <input id="t-name" value={f.name} onChange={(e) => edit({ name: e.target.value }, 'name')} required maxLength={200} />
        </Field>
        <ModalActions onClose={onClose} busy={busy} submitLabel={t('team.save')} />
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
    <Modal title={t('team.invite.title')} onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <ModalAlert />
        <p className="sw-span-2 sw-muted">{t('team.invite.intro')}</p>
        <Field id="i-name" label={t('team.form.name')} required error={errors.name}>
          <input id="i-name" value={f.name} onChange={(e) => edit({ name: e.target.value }, 'name')} required maxLength={200} />
        </Field>
        <Field id="i-email" label={t('team.form.email')} required error={errors.email}>
          <input id="i-email" type="email" value={f.email} onChange={(e) => edit({ email: e.target.value }, 'email')} required />
        </Field>
        {chooseCompany && (
          <Field id="i-company" label={t('team.form.company')} required error={errors.companyId}>
            <select id="i-company" value={f.companyId} onChange={(e) => edit({ companyId: e.target.value }, 'companyId')} required>
              <option value="">{t('team.form.selectCompany')}</option>
              <Options items={companies.map((c) => [c.id, c.name])} />
            </select>
          </Field>
        )}
        <Field id="i-type" label={t('team.form.role')} required>
          <select id="i-type" value={f.userType} onChange={(e) => setF({ ...f, userType: e.target.value as InviteForm['userType'] })}>
            <option value="2">{typeLabel('2')}</option>
            <option value="3">{typeLabel('3')}</option>
          </select>
        </Field>
        <ModalActions onClose={onClose} busy={busy} submitLabel={t('team.invite.submit')} />
      </form>
    </Modal>
  );
}
