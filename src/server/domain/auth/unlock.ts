// The owner's way past a sign-in attack spread over many addresses: a one-time link (1 hour)
// mailed when the account reaches its failure ceiling. Opening it lets the address it was opened
// from sign in to that account while new addresses stay paused; it signs nobody in by itself.
import type { Ctx, Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { authCodesRepo } from '../../db/repositories/auth-codes-repo.ts';
import { sendMail } from '../../notify/mailer.ts';
import { accountOrigin } from './account-links.ts';
import { hashSecret, newSecret } from './tokens.ts';

export const UNLOCK_SECONDS = 60 * 60;
export const UNLOCK_INVALID = 'This unlock link is invalid or has expired.';

/** Mails the owner of `email` (if there is one) the unlock link; never awaited by sign-in. */
export async function mailUnlockLink(services: Services, email: string, port: string): Promise<void> {
  const user = await usersRepo(services.db).findByEmail(email);
  if (!user?.is_active) return;
  const at = await accountOrigin(services, user, port);
  if (!at) return;
  const now = services.now();
  const secret = newSecret();
  await authCodesRepo(services.db).insert({
    id: newId(),
    kind: 'unlock',
    code_hash: secret.hash,
    user_id: user.id,
    host: at.host,
    remember: false,
    session_version: user.session_version,
    created_at: now,
    expires_at: now + UNLOCK_SECONDS * 1000,
    used_at: null,
  });
  const link = `${at.origin}/login?unlock=${secret.value}`;
  const product = services.config.productName;
  await sendMail(services, {
    to: user.email,
    subject: `Someone is trying to sign in to your ${product} account`,
    text:
      `Hello ${user.full_name},\n\nIn the last hour there were many failed attempts to sign in to your ${product} account from different addresses. ` +
      `To keep it safe, sign-in from new addresses is paused for now; where you signed in before, you can still sign in as usual.\n\n` +
      `To sign in from somewhere else, open this link there within an hour, then sign in with your password:\n\n${link}\n\n` +
      `If you have not tried to sign in, nobody got in with these attempts; choosing a new, unique password is still a good idea.\n`,
    kind: 'sign_in_unlock',
    link,
    companyId: user.company_id,
  });
}

export async function unlockSignIn(ctx: Ctx, input: { token: string }): Promise<void> {
  const { services } = ctx;
  const codes = authCodesRepo(services.db);
  const row = input.token ? await codes.findByHash('unlock', hashSecret(input.token)) : undefined;
  if (!row || row.used_at !== null || row.expires_at <= services.now())
    throw new DomainError('validation', UNLOCK_INVALID, { fields: { token: UNLOCK_INVALID } });
  const user = await usersRepo(services.db).findById(row.user_id);
  if (!user?.is_active || user.session_version !== row.session_version)
    throw new DomainError('validation', UNLOCK_INVALID, { fields: { token: UNLOCK_INVALID } });
  if ((await codes.consume(row.id, services.now())) === 0)
    throw new DomainError('validation', UNLOCK_INVALID, { fields: { token: UNLOCK_INVALID } });
  await services.state.throttles.login.trust(user.email, ctx.ip, services.now());
}
