// The first super admin: created once, by /setup, the admin CLI or ADMIN_EMAIL/ADMIN_PASSWORD;
// and the operator's way back in when a password is lost (the admin CLI).
import { randomUUID } from 'node:crypto';
import type { Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { hashPassword } from '../auth/password.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { authCodesRepo } from '../../db/repositories/auth-codes-repo.ts';
import { endUserSessions } from '../auth/sessions.ts';
import { recordAudit } from '../audit/record.ts';
import { TOO_COMMON_PASSWORD, passwordProblem } from '../users/rules.ts';
import { isCommonPassword } from '../../common-passwords.ts';
import { roleOfUserType } from '../../../lib/permissions.ts';
import { isEmail } from '../../../lib/formats.ts';

const SETUP_DONE = 'Setup is already complete: a user exists.';

export async function needsSetup(services: Services): Promise<boolean> {
  return (await usersRepo(services.db).count()) === 0;
}

/** Creates a super admin. With `onlyIfNoUsers`, refuses once any user exists (the /setup rule). */
export async function createSuperAdmin(
  services: Services,
  input: { email: string; password: string; fullName?: string },
  opts: { onlyIfNoUsers: boolean },
): Promise<{ id: string }> {
  const email = input.email.trim().toLowerCase();
  if (!isEmail(email))
    throw new DomainError('validation', 'Please enter a valid email address.', {
      fields: { email: 'Please enter a valid email address.' },
    });
  if (input.password.length < 8)
    throw new DomainError('validation', 'The password must have at least 8 characters.', {
      fields: { password: 'The password must have at least 8 characters.' },
    });
  if (isCommonPassword(input.password))
    throw new DomainError('validation', TOO_COMMON_PASSWORD, { fields: { password: TOO_COMMON_PASSWORD } });
  const repo = usersRepo(services.db);
  if (opts.onlyIfNoUsers && (await repo.count()) > 0) throw new DomainError('conflict', SETUP_DONE);
  if (await repo.findByEmail(email)) throw new DomainError('conflict', 'A user with this email already exists.');
  const now = services.now();
  const id = randomUUID();
  const row = {
    id,
    email,
    full_name: input.fullName?.trim() || 'Administrator',
    user_type: 1,
    company_id: null,
    is_active: true,
    password_hash: await hashPassword(input.password),
    session_version: 1,
    created_at: now,
    updated_at: now,
  };
  if (!opts.onlyIfNoUsers) {
    await repo.insert(row);
    return { id };
  }
  // Checked again under a lock: two first-run forms sent at once create one super admin.
  await withTransaction(services.db, async (db) => {
    const tx = usersRepo(db);
    await tx.lockForFirstUser();
    if ((await tx.count()) > 0) throw new DomainError('conflict', SETUP_DONE);
    await tx.insert(row);
  });
  return { id };
}

/**
 * Sets a new password for any user by email, from the server's own console (no sign-in is
 * possible when the last super admin's password is lost). Ends the user's sessions and any
 * outstanding reset links, like an admin's reset in the console.
 */
export async function resetPasswordByOperator(
  services: Services,
  input: { email: string; password: string },
): Promise<{ id: string; userType: number; isActive: boolean }> {
  const email = input.email.trim().toLowerCase();
  const pw = passwordProblem(input.password);
  if (pw) throw new DomainError('validation', pw, { fields: { password: pw } });
  const user = await usersRepo(services.db).findByEmail(email);
  if (!user) throw new DomainError('not_found', `No user with the email ${email}.`);
  const now = services.now();
  // Hashed before the transaction: argon2 takes a while, and a transaction holds the writer.
  const passwordHash = await hashPassword(input.password);
  await withTransaction(services.db, async (tx) => {
    await usersRepo(tx).update(user.id, { password_hash: passwordHash, updated_at: now });
    await endUserSessions(services, user.id, tx);
    await authCodesRepo(tx).invalidateUser(user.id, 'reset', now);
    await recordAudit(tx, services, {
      event: 'user_update',
      source: 'server',
      userId: user.id,
      userRole: roleOfUserType(user.user_type),
      tenantId: user.company_id,
      details: { user_id: user.id, change: 'password_reset_by_operator_cli' },
    });
  });
  return { id: user.id, userType: user.user_type, isActive: user.is_active };
}
