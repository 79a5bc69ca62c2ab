// Passkeys: a user's list (named, with created and last used), enrolment, renaming and removal
// on the Account screen, and the password-less sign-in ("Sign in with a passkey"). The
// ceremonies themselves are in passkey-ceremony.ts; their use as a second factor is in
// two-factor.ts.
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { newId, toIso, toIsoOrNull } from '../ids.ts';
import { requireActor } from '../authz.ts';
import { passkeysRepo, type PasskeyRow } from '../../db/repositories/passkeys-repo.ts';
import { totpRepo } from '../../db/repositories/totp-repo.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { auditFromCtx } from '../audit/record.ts';
import { verifyPassword } from './password.ts';
import { tooManyAttempts } from './throttle.ts';
import { assertMaySignIn } from './sessions.ts';
import { assertSignsInHere, finishSignIn, hostCompanyOf, type LoginResult } from './account.ts';
import { passwordRefusedBySso } from '../sso/require-sso.ts';
import { SSO_REQUIRED_MESSAGE } from '../../../lib/sso-messages.ts';
import { newRecoveryCodes } from './two-factor.ts';
import {
  PasskeyRefused,
  auditRefusal,
  authenticationOptions,
  registrationOptions,
  siteOf,
  verifyAssertion,
  verifyRegistration,
  type AssertionInput,
} from './passkey-ceremony.ts';

/** Each user may keep this many passkeys (a phone, a laptop, a security key or two, ...). */
export const MAX_PASSKEYS = 20;

export interface PasskeyView {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

function toView(p: PasskeyRow): PasskeyView {
  return { id: p.id, name: p.name, created_at: toIso(p.created_at), last_used_at: toIsoOrNull(p.last_used_at) };
}

function requireSessionUser(ctx: Ctx) {
  const actor = requireActor(ctx);
  if (actor.apiToken) throw new DomainError('forbidden', 'API tokens cannot change passkeys.');
  return actor;
}

function cleanName(name: string): string {
  const n = name.trim();
  if (!n) throw new DomainError('validation', 'Give the passkey a name.', { fields: { name: 'Give the passkey a name.' } });
  if (n.length > 100) throw new DomainError('validation', 'At most 100 characters.', { fields: { name: 'At most 100 characters.' } });
  return n;
}

/** Changes that add or remove a way to sign in ask for the password again (throttled like sign-in). */
async function confirmPassword(ctx: Ctx, password: string | undefined): Promise<void> {
  const actor = requireSessionUser(ctx);
  const { services } = ctx;
  if (!password) {
    throw new DomainError('validation', 'Enter your password to confirm.', { fields: { password: 'Enter your password to confirm.' } });
  }
  const now = services.now();
  const guard = services.state.throttles.login;
  const gate = await guard.check(actor.email, ctx.ip, now);
  if (!gate.allowed) throw tooManyAttempts(gate.retryAfter);
  const user = await usersRepo(services.db).findById(actor.userId);
  if (!user || !(await verifyPassword(user.password_hash, password))) {
    await guard.failed(actor.email, ctx.ip, now);
    throw new DomainError('validation', 'The password is not correct.', { fields: { password: 'The password is not correct.' } });
  }
}

export async function listPasskeys(ctx: Ctx): Promise<PasskeyView[]> {
  const actor = requireSessionUser(ctx);
  return (await passkeysRepo(ctx.services.db).listForUser(actor.userId)).map(toView);
}

export async function startPasskeyEnrolment(ctx: Ctx, input: { password?: string }) {
  const actor = requireSessionUser(ctx);
  await confirmPassword(ctx, input.password);
  if ((await passkeysRepo(ctx.services.db).countForUser(actor.userId)) >= MAX_PASSKEYS) {
    throw new DomainError('conflict', `You have ${MAX_PASSKEYS} passkeys, the most an account may keep. Remove one first.`);
  }
  return registrationOptions(ctx.services, { id: actor.userId, email: actor.email, full_name: actor.fullName }, ctx.host);
}

export async function finishPasskeyEnrolment(
  ctx: Ctx,
  input: { challenge_id: string; name: string; response: RegistrationResponseJSON },
  port: string,
): Promise<{ passkey: PasskeyView; recovery_codes?: string[] }> {
  const actor = requireSessionUser(ctx);
  const { services } = ctx;
  const name = cleanName(input.name);
  const cred = await verifyRegistration(services, actor.userId, siteOf(services, ctx.host, port), input);
  const now = services.now();
  return withTransaction(services.db, async (tx) => {
    const id = newId();
    await passkeysRepo(tx).insert({ id, user_id: actor.userId, ...cred, name, created_at: now, last_used_at: null });
    // The first second factor brings recovery codes (an authenticator app brings its own).
    const recovery =
      (await totpRepo(tx).countUnusedRecoveryCodes(actor.userId)) === 0 ? await newRecoveryCodes(tx, actor.userId, now) : undefined;
    await auditFromCtx(tx, ctx, 'user_update', { user_id: actor.userId, change: 'passkey_added', passkey_id: id, name });
    const row = await passkeysRepo(tx).findOwn(actor.userId, id);
    return { passkey: toView(row!), ...(recovery ? { recovery_codes: recovery } : {}) };
  });
}

export async function renamePasskey(ctx: Ctx, id: string, input: { name: string }): Promise<PasskeyView> {
  const actor = requireSessionUser(ctx);
  const name = cleanName(input.name);
  return withTransaction(ctx.services.db, async (tx) => {
    const before = await passkeysRepo(tx).findOwn(actor.userId, id);
    if (!before || (await passkeysRepo(tx).rename(actor.userId, id, name)) === 0) throw new DomainError('not_found', 'Passkey not found.');
    await auditFromCtx(tx, ctx, 'user_update', {
      user_id: actor.userId,
      change: 'passkey_renamed',
      passkey_id: id,
      from: before.name,
      to: name,
    });
    return toView({ ...before, name });
  });
}

export async function removePasskey(ctx: Ctx, id: string, input: { password?: string }): Promise<void> {
  const actor = requireSessionUser(ctx);
  if (!(await passkeysRepo(ctx.services.db).findOwn(actor.userId, id))) throw new DomainError('not_found', 'Passkey not found.');
  await confirmPassword(ctx, input.password);
  await withTransaction(ctx.services.db, async (tx) => {
    const row = await passkeysRepo(tx).findOwn(actor.userId, id);
    if (!row || (await passkeysRepo(tx).remove(actor.userId, id)) === 0) throw new DomainError('not_found', 'Passkey not found.');
    // The last second factor gone: its recovery codes go too (as when an authenticator app is removed).
    const totpOn = !!(await totpRepo(tx).find(actor.userId))?.enabled_at;
    if (!totpOn && (await passkeysRepo(tx).countForUser(actor.userId)) === 0) await totpRepo(tx).removeRecoveryCodes(actor.userId);
    await auditFromCtx(tx, ctx, 'user_update', { user_id: actor.userId, change: 'passkey_removed', passkey_id: id, name: row.name });
  });
}

/** Options for signing in with a passkey (password-less, or as the second factor). Anyone may ask. */
export async function passkeySignInOptions(ctx: Ctx) {
  const { services } = ctx;
  // Asking costs a stored challenge: refused from an address that is already throttled.
  const gate = await services.state.throttles.login.check(UNKNOWN_KEY, ctx.ip, services.now());
  if (!gate.allowed) throw tooManyAttempts(gate.retryAfter);
  await hostCompanyOf(ctx);
  // Required, not preferred: for the password-less sign-in the passkey is both factors. The
  // second-factor step verifies without requiring it.
  return authenticationOptions(services, ctx.host, 'required');
}

/** Throttle key for passkeys we do not know (no account to count them against). */
const UNKNOWN_KEY = 'passkey:unknown';

/**
 * Password-less sign-in: the passkey alone, with user verification (it is something the user
 * has, unlocked by something they know or are). Throttled and audited like every sign-in.
 */
export async function signInWithPasskey(ctx: Ctx, input: AssertionInput & { remember?: boolean }, port: string): Promise<LoginResult> {
  const { services } = ctx;
  const now = services.now();
  const guard = services.state.throttles.login;
  const hostCompany = await hostCompanyOf(ctx);
  const credId = typeof input.response?.id === 'string' ? input.response.id : '';
  const known = credId ? await passkeysRepo(services.db).findByCredentialId(credId) : undefined;
  const user = known ? await usersRepo(services.db).findById(known.user_id) : undefined;
  const key = user?.email ?? UNKNOWN_KEY;
  const gate = await guard.check(key, ctx.ip, now);
  if (!gate.allowed) throw tooManyAttempts(gate.retryAfter);
  try {
    await verifyAssertion(services, siteOf(services, ctx.host, port), input, { requireUserVerification: true });
  } catch (e) {
    if (!(e instanceof PasskeyRefused)) throw e;
    await guard.failed(key, ctx.ip, now);
    await auditRefusal(services, e, { ip: ctx.ip, userAgent: ctx.userAgent, host: ctx.host, step: 'password-less' });
    throw e;
  }
  if (!user) throw new DomainError('unauthorized', 'This passkey is not registered with StatusWatch.');
  try {
    await assertMaySignIn(services, user);
    assertSignsInHere(user, hostCompany);
    // Require SSO: the company's people come in through its identity provider only (the break-glass
    // admin and super admins keep their own ways in), so a passkey does not bypass it either.
    if (await passwordRefusedBySso(services, user)) throw new DomainError('forbidden', SSO_REQUIRED_MESSAGE);
  } catch (e) {
    if (e instanceof DomainError) {
      const refused = new PasskeyRefused(e.detail, `refused on this host: ${e.detail}`, user.id);
      await auditRefusal(services, refused, { ip: ctx.ip, userAgent: ctx.userAgent, host: ctx.host, step: 'password-less' });
    }
    throw e;
  }
  await guard.succeeded(key, ctx.ip, now);
  return finishSignIn(ctx, user, port, input.remember === true, { method: 'passkey', passkey_id: known!.id });
}
