// Users Management (spec sections 2, 5, 8): the user list, the companies for the form, and the
// create/update/reset-password/delete actions. Every successful change reloads the list.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { isEmail } from '../../../../lib/formats.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { always, changeThenReload, dataOrLog, inAlert, loadInto, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

export type User = components['schemas']['User'];
export type Company = components['schemas']['Company'];
export type UserType = '1' | '2' | '3';

export const $users = atom<Load<User[]>>({ status: 'loading' });
export const $userCompanies = atom<Company[]>([]);
export const $userAlert = atom<Alert | null>(null);

export function loadUsers(): Promise<void> {
  return loadInto($users, () => api.GET('/api/v1/admin/users'), always(t('users.loadFailed')));
}

/** The company list for the form and the Company column; a failure is only logged. */
export async function loadUserCompanies(): Promise<void> {
  const data = await dataOrLog(() => api.GET('/api/v1/admin/companies'), 'Failed to load companies for the user form');
  if (data) $userCompanies.set(data);
}

export interface UserForm {
  name: string;
  email: string;
  password: string;
  userType: UserType | '';
  companyId: string;
  isActive: boolean;
}

export const EMPTY_USER_FORM: UserForm = { name: '', email: '', password: '', userType: '', companyId: '', isActive: true };

export function formOf(u: User): UserForm {
  return { name: u.full_name, email: u.email, password: '', userType: u.user_type, companyId: u.company_id ?? '', isActive: u.is_active };
}

/** Choosing user type 1 clears the company selection. */
export function withUserType(f: UserForm, userType: UserForm['userType']): UserForm {
  return { ...f, userType, companyId: userType === '1' ? '' : f.companyId };
}

/** Field messages (shown beside the fields) for a create (password required) or an edit. */
export function validateUser(f: UserForm, creating: boolean): Record<string, string> {
  const e: Record<string, string> = {};
  if (!f.name.trim()) e.name = t('users.form.nameRequired');
  if (!f.email.trim()) e.email = t('users.form.emailRequired');
  else if (!isEmail(f.email.trim())) e.email = t('users.form.emailInvalid');
  if (creating && !f.password) e.password = t('users.form.passwordRequired');
  if (!f.userType) e.userType = t('users.form.typeRequired');
  if ((f.userType === '2' || f.userType === '3') && !f.companyId) e.companyId = t('users.form.companyRequired');
  return e;
}

/** The submit alerts of section 5, or null when the type and company agree. */
export function typeCompanyAlert(f: UserForm): string | null {
  if (f.userType === '1' && f.companyId) return t('users.form.superAdminNoCompany');
  if ((f.userType === '2' || f.userType === '3') && !f.companyId) return t('users.form.companyNeeded');
  return null;
}

export function createPayload(f: UserForm): components['schemas']['UserCreateInput'] {
  const p: components['schemas']['UserCreateInput'] = {
    name: f.name.trim(),
    email: f.email.trim(),
    password: f.password,
    user_type: f.userType as UserType,
    is_active: f.isActive,
  };
  if (f.userType !== '1') p.company_id = f.companyId;
  return p;
}

/** The password field of the edit form is never sent (its own reset action exists). For type 1 the
 *  company is left out, as on create (section 5); the server never keeps a company on a super admin. */
export function updatePayload(f: UserForm): components['schemas']['UserUpdateInput'] {
  const p: components['schemas']['UserUpdateInput'] = {
    name: f.name.trim(),
    email: f.email.trim(),
    user_type: f.userType as UserType,
    is_active: f.isActive,
  };
  if (f.userType !== '1') p.company_id = f.companyId;
  return p;
}

type Verb = 'create' | 'update' | 'delete' | 'reset';
// functions, not constants: the words are looked up in the language of the moment
const DONE: Record<Verb, () => string> = {
  create: () => t('users.done.create'),
  update: () => t('users.done.update'),
  delete: () => t('users.done.delete'),
  reset: () => t('users.done.reset'),
};
const FAILED: Record<Verb, () => string> = {
  create: () => t('users.failed.create'),
  update: () => t('users.failed.update'),
  delete: () => t('users.failed.delete'),
  reset: () => t('users.failed.reset'),
};

function change(verb: Verb, call: () => Promise<{ data?: unknown; error?: unknown }>): Promise<boolean> {
  return changeThenReload(call, inAlert($userAlert, DONE[verb](), FAILED[verb]()), loadUsers);
}

export function createUser(f: UserForm): Promise<boolean> {
  return change('create', () => api.POST('/api/v1/admin/users', { body: createPayload(f) }));
}
export function updateUser(id: string, f: UserForm): Promise<boolean> {
  return change('update', () => api.PUT('/api/v1/admin/users/{id}', { params: { path: { id } }, body: updatePayload(f) }));
}
export function deleteUser(id: string): Promise<boolean> {
  return change('delete', () => api.DELETE('/api/v1/admin/users/{id}', { params: { path: { id } } }));
}
export function resetUserPassword(id: string, newPassword: string): Promise<boolean> {
  return change('reset', () =>
    api.POST('/api/v1/admin/users/{id}/reset-password', { params: { path: { id } }, body: { new_password: newPassword } }),
  );
}
