// Users administration of section 7. Super admins do everything; company admins (the role table
// gives them view and update on users) rename, switch admin <-> viewer, deactivate and reactivate
// the users of their own company, and company viewers only read that list (the Team screen).
// Type 1 users never carry a company, type 2 and 3 always do; a company's max_users is enforced;
// the last super admin stays.
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso } from '../ids.ts';
import { companyScope, requirePermission, requireSuperAdmin } from '../authz.ts';
import type { Actor } from '../context.ts';
import { withTransaction, type DbScope } from '../../db/scope.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { usersRepo, type UserRow } from '../../db/repositories/users-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { hashPassword } from '../auth/password.ts';
import { endUserSessions } from '../auth/sessions.ts';
import { auditFromCtx } from '../audit/record.ts';
import { newPasswordProblem, passwordProblem } from './rules.ts';
import { isEmail } from '../../../lib/formats.ts';

export interface UserView {
  id: string;
  email: string;
  full_name: string;
  user_type: '1' | '2' | '3';
  company_id: string | null;
  company_name: string | null;
  is_active: boolean;
  created_at: string;
  last_sign_in_at: string | null;
}

export function toUserView(u: UserRow, companyName: string | null): UserView {
  return {
    id: u.id,
    email: u.email,
    full_name: u.full_name,
    user_type: String(u.user_type) as UserView['user_type'],
    company_id: u.company_id,
    company_name: companyName,
    is_active: u.is_active,
    created_at: toIso(u.created_at),
    last_sign_in_at: u.last_login_at == null ? null : toIso(u.last_login_at),
  };
}

export const SUPER_ADMIN_WITH_COMPANY = 'Super admin users should not be assigned to a specific company';
export const COMPANY_USER_WITHOUT_COMPANY = 'Company admin and user/viewer must be assigned to a company';
const EMAIL_TAKEN = 'A user with this email already exists.';

interface UserFormInput {
  name?: string;
  email?: string;
  password?: string;
  user_type?: string | number;
  company_id?: string | null;
  is_active?: boolean;
}

interface CleanUser {
  full_name: string;
  email: string;
  user_type: 1 | 2 | 3;
  company_id: string | null;
}

function fail(fields: Record<string, string>): void {
  const messages = Object.values(fields);
  if (messages.length) throw new DomainError('validation', messages.join(' '), { fields });
}

async function validateUser(ctx: Ctx, input: UserFormInput, opts: { creating: boolean }): Promise<CleanUser> {
  const fields: Record<string, string> = {};
  const full_name = (input.name ?? '').trim();
  const email = (input.email ?? '').trim().toLowerCase();
  if (!full_name) fields.name = 'Full Name is required.';
  if (!email) fields.email = 'Email is required.';
  else if (!isEmail(email)) fields.email = 'Please enter a valid email address.';
  if (opts.creating) {
    const pw = passwordProblem(input.password);
    if (pw) fields.password = pw;
  }
  const type = Number(input.user_type);
  if (![1, 2, 3].includes(type)) fields.user_type = 'User Type is required.';
  const companyId = input.company_id || null;
  if (type === 1 && companyId) fields.company_id = SUPER_ADMIN_WITH_COMPANY;
  if ((type === 2 || type === 3) && !companyId) fields.company_id = COMPANY_USER_WITHOUT_COMPANY;
  fail(fields);
  if (companyId && !(await companiesRepo(ctx.services.db).findById(companyId))) {
    fail({ company_id: 'The selected company does not exist.' });
  }
  return { full_name, email, user_type: type as 1 | 2 | 3, company_id: type === 1 ? null : companyId };
}

/** Inside a transaction: refuses when the company is full (its row is locked meanwhile). */
async function assertRoomFor(db: DbScope, companyId: string): Promise<void> {
  const company = await companiesRepo(db).lockById(companyId);
  if (!company) return;
  const users = await usersRepo(db).countByCompany(companyId);
  if (users >= company.max_users) {
    throw new DomainError(
      'limit_exceeded',
      `${company.name} already has its maximum of ${company.max_users} user${company.max_users === 1 ? '' : 's'}. Raise Max Users to add more.`,
    );
  }
}

async function companyNameOf(ctx: Ctx, companyId: string | null): Promise<string | null> {
  if (!companyId) return null;
  return (await companiesRepo(ctx.services.db).findById(companyId))?.name ?? null;
}

/** Super admins: every user, or one company's; company users: their own company's. */
export async function listUsers(ctx: Ctx, query: { company_id?: string } = {}): Promise<UserView[]> {
  requirePermission(ctx, 'view', 'users');
  const rows = await usersRepo(ctx.services.db).listWithCompanyName({ companyId: companyScope(ctx, query.company_id) });
  return rows.map((r) => toUserView(r, r.company_name));
}

async function loadUser(ctx: Ctx, id: string): Promise<UserRow> {
  const u = await usersRepo(ctx.services.db).findById(id);
  if (!u) throw notFound('User');
  return u;
}

export async function createUser(ctx: Ctx, input: UserFormInput): Promise<UserView> {
  requireSuperAdmin(ctx);
  const clean = await validateUser(ctx, input, { creating: true });
  const repo = usersRepo(ctx.services.db);
  if (await repo.findByEmail(clean.email)) throw new DomainError('conflict', EMAIL_TAKEN, { fields: { email: EMAIL_TAKEN } });
  const passwordHash = await hashPassword(input.password!);
  const now = ctx.services.now();
  const id = newId();
  try {
    await withTransaction(ctx.services.db, async (db) => {
      if (clean.company_id) await assertRoomFor(db, clean.company_id);
      await usersRepo(db).insert({
        ...clean,
        id,
        is_active: input.is_active !== false,
        password_hash: passwordHash,
        session_version: 1,
        created_at: now,
        updated_at: now,
      });
      await auditFromCtx(
        db,
        ctx,
        'user_create',
        { user_id: id, email: clean.email, user_type: clean.user_type, company_id: clean.company_id },
        undefined,
        clean.company_id,
      );
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new DomainError('conflict', EMAIL_TAKEN, { fields: { email: EMAIL_TAKEN } });
    throw e;
  }
  return toUserView((await repo.findById(id))!, await companyNameOf(ctx, clean.company_id));
}

const LAST_SUPER_ADMIN = 'The last active super admin cannot be removed, demoted or deactivated. Create another super admin first.';

export const NOT_YOUR_EMAIL_TO_CHANGE = "Company admins cannot change a user's email address.";
export const NO_SUPER_ADMIN_PROMOTION = 'Only super admins can make a user a super admin.';
export const NO_COMPANY_MOVE = 'Company admins cannot move users to another company.';
export const NO_SELF_DEACTIVATION = 'You cannot deactivate your own account.';
export const NO_SELF_DEMOTION = 'You cannot remove your own admin rights. Ask another admin.';

/**
 * What a company admin may change: the name, admin <-> viewer and active, of their own
 * company's users (others answer 404, as if they did not exist), never their own access.
 */
async function loadForCompanyAdmin(ctx: Ctx, actor: Actor, id: string, input: UserFormInput): Promise<UserRow> {
  const before = await loadUser(ctx, id);
  if (!actor.companyId || before.company_id !== actor.companyId) throw notFound('User');
  if (String(input.user_type) === '1') throw new DomainError('forbidden', NO_SUPER_ADMIN_PROMOTION);
  if (input.company_id && input.company_id !== actor.companyId) throw new DomainError('forbidden', NO_COMPANY_MOVE);
  if (input.email !== undefined && input.email.trim().toLowerCase() !== before.email)
    throw new DomainError('forbidden', NOT_YOUR_EMAIL_TO_CHANGE);
  if (id === actor.userId) {
    if (input.is_active === false) throw new DomainError('forbidden', NO_SELF_DEACTIVATION);
    if (String(input.user_type) !== '2') throw new DomainError('forbidden', NO_SELF_DEMOTION);
  }
  return before;
}

export async function updateUser(ctx: Ctx, id: string, input: UserFormInput): Promise<UserView> {
  const actor = requirePermission(ctx, 'update', 'users');
  let before: UserRow;
  if (actor.role === 'super_admin') before = await loadUser(ctx, id);
  else {
    before = await loadForCompanyAdmin(ctx, actor, id, input);
    input = { ...input, email: before.email, company_id: before.company_id };
  }
  const clean = await validateUser(ctx, input, { creating: false });
  const repo = usersRepo(ctx.services.db);
  const other = await repo.findByEmail(clean.email);
  if (other && other.id !== id) throw new DomainError('conflict', EMAIL_TAKEN, { fields: { email: EMAIL_TAKEN } });
  const isActive = input.is_active === undefined ? before.is_active : input.is_active;
  const losesSuperAdmin = before.user_type === 1 && before.is_active && (clean.user_type !== 1 || !isActive);
  const roleChanged = clean.user_type !== before.user_type || clean.company_id !== before.company_id;
  try {
    await withTransaction(ctx.services.db, async (db) => {
      if (losesSuperAdmin && (await usersRepo(db).lockActiveSuperAdmins()) <= 1) throw new DomainError('conflict', LAST_SUPER_ADMIN);
      if (clean.company_id && clean.company_id !== before.company_id) await assertRoomFor(db, clean.company_id);
      await usersRepo(db).update(id, { ...clean, is_active: isActive, updated_at: ctx.services.now() });
      // A new role, company, email or deactivation takes effect at once: the old sessions end.
      if (roleChanged || clean.email !== before.email || (before.is_active && !isActive)) await endUserSessions(ctx.services, id, db);
      if (roleChanged) {
        await auditFromCtx(
          db,
          ctx,
          'user_role_change',
          {
            user_id: id,
            from: { user_type: before.user_type, company_id: before.company_id },
            to: { user_type: clean.user_type, company_id: clean.company_id },
          },
          undefined,
          clean.company_id,
        );
      }
      await auditFromCtx(db, ctx, 'user_update', { user_id: id, is_active: isActive }, undefined, clean.company_id);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new DomainError('conflict', EMAIL_TAKEN, { fields: { email: EMAIL_TAKEN } });
    throw e;
  }
  return toUserView((await repo.findById(id))!, await companyNameOf(ctx, clean.company_id));
}

export async function deleteUser(ctx: Ctx, id: string): Promise<void> {
  requireSuperAdmin(ctx);
  const u = await loadUser(ctx, id);
  await withTransaction(ctx.services.db, async (db) => {
    if (u.user_type === 1 && u.is_active && (await usersRepo(db).lockActiveSuperAdmins()) <= 1)
      throw new DomainError('conflict', LAST_SUPER_ADMIN);
    await usersRepo(db).delete(id);
    await auditFromCtx(
      db,
      ctx,
      'user_delete',
      { user_id: id, email: u.email, user_type: u.user_type, company_id: u.company_id },
      undefined,
      u.company_id,
    );
  });
}

export async function resetUserPassword(ctx: Ctx, id: string, input: { new_password: string }): Promise<void> {
  requireSuperAdmin(ctx);
  const u = await loadUser(ctx, id);
  const pw = newPasswordProblem(input.new_password);
  if (pw) throw new DomainError('validation', pw, { fields: { new_password: pw } });
  // Hashed before the transaction: argon2 takes a while, and a transaction holds the writer.
  const passwordHash = await hashPassword(input.new_password);
  await withTransaction(ctx.services.db, async (db) => {
    await usersRepo(db).update(id, { password_hash: passwordHash, updated_at: ctx.services.now() });
    await endUserSessions(ctx.services, id, db);
    await auditFromCtx(db, ctx, 'user_update', { user_id: u.id, change: 'password_reset_by_admin' }, undefined, u.company_id);
  });
}
