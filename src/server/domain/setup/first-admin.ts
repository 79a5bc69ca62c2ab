// The first super admin: created once, by /setup, the admin CLI or ADMIN_EMAIL/ADMIN_PASSWORD.
import { randomUUID } from 'node:crypto';
import type { Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { hashPassword } from '../auth/password.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
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
  if (!EMAIL_RE.test(email)) throw new DomainError('validation', 'Please enter a valid email address.', { fields: { email: 'Please enter a valid email address.' } });
  if (input.password.length < 8) throw new DomainError('validation', 'The password must have at least 8 characters.', { fields: { password: 'The password must have at least 8 characters.' } });
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
    is_active: 1,
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
  await services.db.k.transaction().execute(async (trx) => {
    const tx = usersRepo({ ...services.db, k: trx });
    await tx.lockForFirstUser();
    if ((await tx.count()) > 0) throw new DomainError('conflict', SETUP_DONE);
    await tx.insert(row);
  });
  return { id };
}
