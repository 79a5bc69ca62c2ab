// /admin/users 'Users Management' (spec sections 2, 5 and 8).
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { t, tr } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { Field } from '../../ui/Field.tsx';
import { FormAlert, ModalActions, Options, useModalForm } from '../../ui/ModalForm.tsx';
import { fmtDate } from '../../ui/format.ts';
import { Confirm, Modal } from '../../ui/Modal.tsx';
import { ListPage } from '../../ui/ListPage.tsx';
import {
  $userAlert,
  $userCompanies,
  $users,
  createUser,
  deleteUser,
  EMPTY_USER_FORM,
  formOf,
  loadUserCompanies,
  loadUsers,
  resetUserPassword,
  typeCompanyAlert,
  updateUser,
  validateUser,
  withUserType,
  type User,
  type UserForm,
} from './store.ts';

/** A user type as the console shows it ('1' super admin, '2' company admin, '3' viewer) */
function typeLabel(type: string): string {
  if (type === '1') return t('users.type.superAdmin');
  if (type === '2') return t('users.type.companyAdmin');
  if (type === '3') return t('users.type.viewer');
  return type;
}

export function UsersPage() {
  const role = useStore($role);
  // managing users needs create and delete on users: super admins only
  if (!can(role, 'create', 'users') || !can(role, 'delete', 'users')) {
    return (
      <div className="sw-banner sw-banner-error" role="alert">
        {t('users.accessDenied')}
      </div>
    );
  }
  return <Users />;
}

function Users() {
  const users = useStore($users);
  const companies = useStore($userCompanies);
  const alert = useStore($userAlert);
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  useEffect(() => {
    $userAlert.set(null);
    void loadUsers();
    void loadUserCompanies();
  }, []);
  const open = (fn: () => void) => () => {
    $userAlert.set(null);
    fn();
  };
  const companyName = (u: User) => {
    if (!u.company_id) return t('users.noCompany');
    return u.company_name ?? companies.find((c) => c.id === u.company_id)?.name ?? t('users.unknownCompany');
  };
  const modalOpen = !!editing || !!resetting;
  return (
    <ListPage
      crumb={t('users.crumb')}
      title={t('users.title')}
      createLabel={t('users.create')}
      onCreate={open(() => setEditing('new'))}
      alert={modalOpen ? null : alert}
      load={users}
      onRetry={() => void loadUsers()}
      listTitle={t('users.listTitle')}
      listId="all-users"
      empty={t('users.empty')}
      columns={[
        t('users.col.name'),
        t('users.col.email'),
        t('users.col.type'),
        t('users.col.company'),
        t('users.col.status'),
        t('users.col.created'),
        t('users.col.actions'),
      ]}
      row={(u) => ({
        key: u.id,
        cells: [
          u.full_name,
          u.email,
          <span className={`sw-badge sw-type-${u.user_type}`}>{typeLabel(u.user_type)}</span>,
          companyName(u),
          <span className={u.is_active ? 'sw-pill sw-green' : 'sw-pill sw-grey'}>
            {u.is_active ? t('users.active') : t('users.inactive')}
          </span>,
          fmtDate(u.created_at),
          <>
            <button
              type="button"
              className="sw-btn sw-btn-small"
              aria-label={t('users.editAria', { email: u.email })}
              onClick={open(() => setEditing(u))}
            >
              {t('users.edit')}
            </button>
            <button
              type="button"
              className="sw-btn sw-btn-small"
              aria-label={t('users.resetAria', { email: u.email })}
              onClick={open(() => setResetting(u))}
            >
              {t('users.reset')}
            </button>
            <button
              type="button"
              className="sw-btn sw-btn-small sw-btn-danger"
              aria-label={t('users.deleteAria', { email: u.email })}
              onClick={open(() => setDeleting(u))}
            >
              {t('users.delete')}
            </button>
          </>,
        ],
      })}
    >
      {editing && <UserModal user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {resetting && <ResetModal user={resetting} onClose={() => setResetting(null)} />}
      {deleting && (
        <Confirm
          title={t('users.deleteTitle')}
          danger
          confirmLabel={t('users.delete')}
          text={t('users.deleteText')}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const id = deleting.id;
            setDeleting(null);
            void deleteUser(id);
          }}
        />
      )}
    </ListPage>
  );
}

function ModalAlert() {
  const alert = useStore($userAlert);
  return <FormAlert text={alert && !alert.ok ? alert.text : null} />;
}

function UserModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  const companies = useStore($userCompanies);
  const { f, setF, errors, setErrors, busy, edit, send } = useModalForm<UserForm>(user ? formOf(user) : EMPTY_USER_FORM);
  const creating = !user;
  async function submit(e: FormEvent) {
    e.preventDefault();
    const v = validateUser(f, creating);
    const typeAlert = typeCompanyAlert(f);
    delete v.companyId; // shown as the submit alert below
    if (typeAlert && Object.keys(v).length === 0) {
      setErrors(v);
      $userAlert.set({ ok: false, text: typeAlert });
      return;
    }
    const ok = await send(v, () => (user ? updateUser(user.id, f) : createUser(f)));
    if (ok) onClose();
  }
  const companyRequired = f.userType === '2' || f.userType === '3';
  return (
    <Modal title={user ? t('users.editTitle') : t('users.createTitle')} onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <ModalAlert />
        <Field id="u-name" label={t('users.form.name')} required error={errors.name}>
          <input id="u-name" value={f.name} onChange={(e) => edit({ name: e.target.value }, 'name')} required />
        </Field>
        <Field id="u-email" label={t('users.form.email')} required error={errors.email}>
          <input id="u-email" type="email" value={f.email} onChange={(e) => edit({ email: e.target.value }, 'email')} required />
        </Field>
        <Field id="u-password" label={t('users.form.password')} required={creating} error={errors.password}>
          <input
            id="u-password"
            type="password"
            autoComplete="new-password"
            value={f.password}
            onChange={(e) => edit({ password: e.target.value }, 'password')}
            required={creating}
            placeholder={creating ? '' : t('users.form.passwordKeep')}
          />
        </Field>
        <Field id="u-type" label={t('users.form.type')} required error={errors.userType}>
          <select
            id="u-type"
            value={f.userType}
            onChange={(e) => edit(withUserType(f, e.target.value as UserForm['userType']), 'userType')}
            required
          >
            <option value="">{t('users.form.selectType')}</option>
            <option value="1">{typeLabel('1')}</option>
            <option value="2">{typeLabel('2')}</option>
            <option value="3">{typeLabel('3')}</option>
          </select>
        </Field>
        <Field
          id="u-company"
          label={t('users.form.company')}
          required={companyRequired}
          hint={f.userType === '1' ? t('users.form.superAdminHint') : undefined}
        >
          <select id="u-company" value={f.companyId} onChange={(e) => setF({ ...f, companyId: e.target.value })}>
            <option value="">{t('users.form.noCompany')}</option>
            <Options items={companies.map((c) => [c.id, c.name])} />
          </select>
        </Field>
        <div className="sw-field">
          <label className="sw-check">
            <input type="checkbox" checked={f.isActive} onChange={(e) => setF({ ...f, isActive: e.target.checked })} />
            {t('users.form.active')}
          </label>
        </div>
        <ModalActions onClose={onClose} busy={busy} submitLabel={user ? t('users.update') : t('users.create')} />
      </form>
    </Modal>
  );
}

function ResetModal({ user, onClose }: { user: User; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!password) return setError(t('users.resetForm.required'));
    setError(undefined);
    setBusy(true);
    const ok = await resetUserPassword(user.id, password);
    setBusy(false);
    if (ok) onClose();
  }
  return (
    <Modal title={t('users.resetForm.title')} onClose={onClose}>
      <form className="sw-form" onSubmit={submit} noValidate>
        <ModalAlert />
        <p>{tr('users.resetForm.intro', { email: <strong>{user.email}</strong> })}</p>
        <Field id="r-password" label={t('users.resetForm.password')} required error={error}>
          <input
            id="r-password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </Field>
        <div className="sw-modal-actions">
          <button type="button" className="sw-btn" onClick={onClose}>
            {t('users.cancel')}
          </button>
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
            {t('users.resetForm.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
