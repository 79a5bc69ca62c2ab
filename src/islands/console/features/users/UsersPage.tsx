// /admin/users 'Users Management' (spec sections 2, 5 and 8).
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can, USER_TYPE_LABELS } from '../../../../lib/permissions.ts';
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

export function UsersPage() {
  const role = useStore($role);
  // managing users needs create and delete on users: super admins only
  if (!can(role, 'create', 'users') || !can(role, 'delete', 'users')) {
    return (
      <div className="sw-banner sw-banner-error" role="alert">
        Access denied. Super admin privileges required.
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
    if (!u.company_id) return 'N/A';
    return u.company_name ?? companies.find((c) => c.id === u.company_id)?.name ?? 'Unknown Company';
  };
  const modalOpen = !!editing || !!resetting;
  return (
    <ListPage
      crumb="Users"
      title="Users Management"
      createLabel="Create User"
      onCreate={open(() => setEditing('new'))}
      alert={modalOpen ? null : alert}
      load={users}
      onRetry={() => void loadUsers()}
      listTitle="All Users"
      listId="all-users"
      empty="No users found. Create your first user to get started."
      columns={['Name', 'Email', 'Type', 'Company', 'Status', 'Created', 'Actions']}
      row={(u) => ({
        key: u.id,
        cells: [
          u.full_name,
          u.email,
          <span className={`sw-badge sw-type-${u.user_type}`}>{USER_TYPE_LABELS[u.user_type] ?? u.user_type}</span>,
          companyName(u),
          <span className={u.is_active ? 'sw-pill sw-green' : 'sw-pill sw-grey'}>{u.is_active ? 'Active' : 'Inactive'}</span>,
          fmtDate(u.created_at),
          <>
            <button type="button" className="sw-btn sw-btn-small" aria-label={`Edit ${u.email}`} onClick={open(() => setEditing(u))}>
              Edit
            </button>
            <button
              type="button"
              className="sw-btn sw-btn-small"
              aria-label={`Reset password of ${u.email}`}
              onClick={open(() => setResetting(u))}
            >
              Reset password
            </button>
            <button
              type="button"
              className="sw-btn sw-btn-small sw-btn-danger"
              aria-label={`Delete ${u.email}`}
              onClick={open(() => setDeleting(u))}
            >
              Delete
            </button>
          </>,
        ],
      })}
    >
      {editing && <UserModal user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {resetting && <ResetModal user={resetting} onClose={() => setResetting(null)} />}
      {deleting && (
        <Confirm
          title="Delete User"
          danger
          confirmLabel="Delete"
          text="Are you sure you want to delete this user? This action cannot be undone."
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
    <Modal title={user ? 'Edit User' : 'Create New User'} onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <ModalAlert />
        <Field id="u-name" label="Full Name" required error={errors.name}>
          <input id="u-name" value={f.name} onChange={(e) => edit({ name: e.target.value }, 'name')} required />
        </Field>
        <Field id="u-email" label="Email" required error={errors.email}>
          <input id="u-email" type="email" value={f.email} onChange={(e) => edit({ email: e.target.value }, 'email')} required />
        </Field>
        <Field id="u-password" label="Password" required={creating} error={errors.password}>
          <input
            id="u-password"
            type="password"
            autoComplete="new-password"
            value={f.password}
            onChange={(e) => edit({ password: e.target.value }, 'password')}
            required={creating}
            placeholder={creating ? '' : 'Leave blank to keep current password'}
          />
        </Field>
        <Field id="u-type" label="User Type" required error={errors.userType}>
          <select
            id="u-type"
            value={f.userType}
            onChange={(e) => edit(withUserType(f, e.target.value as UserForm['userType']), 'userType')}
            required
          >
            <option value="">Select a type</option>
            <option value="1">{USER_TYPE_LABELS['1']}</option>
            <option value="2">{USER_TYPE_LABELS['2']}</option>
            <option value="3">{USER_TYPE_LABELS['3']}</option>
          </select>
        </Field>
        <Field
          id="u-company"
          label="Company"
          required={companyRequired}
          hint={f.userType === '1' ? 'Super admins belong to no company' : undefined}
        >
          <select id="u-company" value={f.companyId} onChange={(e) => setF({ ...f, companyId: e.target.value })}>
            <option value="">No company</option>
            <Options items={companies.map((c) => [c.id, c.name])} />
          </select>
        </Field>
        <div className="sw-field">
          <label className="sw-check">
            <input type="checkbox" checked={f.isActive} onChange={(e) => setF({ ...f, isActive: e.target.checked })} />
            Active
          </label>
        </div>
        <ModalActions onClose={onClose} busy={busy} submitLabel={user ? 'Update User' : 'Create User'} />
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
    if (!password) return setError('New Password is required');
    setError(undefined);
    setBusy(true);
    const ok = await resetUserPassword(user.id, password);
    setBusy(false);
    if (ok) onClose();
  }
  return (
    <Modal title="Reset Password" onClose={onClose}>
      <form className="sw-form" onSubmit={submit} noValidate>
        <ModalAlert />
        <p>
          Set a new password for <strong>{user.email}</strong>. Their current sessions end.
        </p>
        <Field id="r-password" label="New Password" required error={error}>
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
            Cancel
          </button>
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
            Reset Password
          </button>
        </div>
      </form>
    </Modal>
  );
}
