// Two-factor sign-in with TOTP (RFC 6238, 30 s steps, 6 digits, via otplib): enrolment (a
// secret shown as an otpauth URI and QR code, confirmed by a first code), ten one-time recovery
// codes, and the check that sign-in makes after a correct password. A code is accepted once
// (the step is remembered), one step of clock drift either way is allowed, and wrong codes are
// throttled per (account, address) and per account (SecondFactorGuard). The secret is stored encrypted with a key derived from SESSION_SECRET.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Ctx, Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { requireActor } from '../authz.ts';
import { totpRepo } from '../../db/repositories/totp-repo.ts';
import { usersRepo, type UserRow } from '../../db/repositories/users-repo.ts';
import { withTransaction, type DbScope } from '../../db/scope.ts';
import { hashSecret } from './tokens.ts';
import { verifyPassword } from './password.ts';
import { tooManyAttempts } from './throttle.ts';
import { mailUnlockLink } from './unlock.ts';
import { auditFromCtx } from '../audit/record.ts';
import { passkeysRepo } from '../../db/repositories/passkeys-repo.ts';
import { PasskeyRefused, auditRefusal, siteOf, verifyAssertion, type AssertionInput } from './passkey-ceremony.ts';

const ISSUER = 'StatusWatch';
const RECOVERY_CODES = 10;
/** One 30 s step either side: a phone's clock a little off still works. */
const DRIFT_SECONDS = 30;
export const CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app, or a recovery code.';
export const PASSKEY_REQUIRED = 'Use one of your passkeys, or a recovery code.';
const PASSKEY_OR_CODE_REQUIRED = 'Use one of your passkeys, or enter the 6-digit code from your authenticator app, or a recovery code.';
const WRONG_CODE = 'The code is not correct.';
const REPLAYED = 'This code was used already. Wait for the next one.';
const TOO_MANY = 'Too many wrong codes.';
const ACCOUNT_PAUSED = ' If this is your account, the link we have e-mailed you lets you sign in now.';

/** Who tries a code and from where: wrong codes count per (account, address). `port` is given
 * at sign-in only, where an account-wide attack mails its owner the unlock link. */
export interface CodeAttempt {
  email: string;
  ip: string;
  port?: string;
  /** where a passkey answers (sign-in only): host without port, and the browser's user agent */
  host?: string;
  userAgent?: string;
}

async function throttleGate(services: Services, userId: string, attempt: CodeAttempt, now: number): Promise<void> {
  const gate = await services.state.throttles.secondFactor.check({ userId, email: attempt.email, ip: attempt.ip }, now);
  if (!gate.allowed) throw tooManyAttempts(gate.retryAfter, TOO_MANY, gate.reason === 'account' ? ACCOUNT_PAUSED : '');
}

async function countWrongCode(services: Services, userId: string, attempt: CodeAttempt, now: number): Promise<void> {
  const { underAttack } = await services.state.throttles.secondFactor.failed({ userId, ip: attempt.ip }, now);
  if (underAttack && attempt.port !== undefined) void mailUnlockLink(services, attempt.email, attempt.port).catch(() => undefined);
}

const keys = new Map<string, Buffer>();
function secretKey(sessionSecret: string): Buffer {
  let key = keys.get(sessionSecret);
  if (!key) {
    key = createHmac('sha256', sessionSecret).update('statuswatch totp secret v1').digest();
    keys.set(sessionSecret, key);
  }
  return key;
}

function sealSecret(sessionSecret: string, secret: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', secretKey(sessionSecret), iv);
  const body = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
  return [iv, c.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

function openSecret(sessionSecret: string, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const d = createDecipheriv('aes-256-gcm', secretKey(sessionSecret), iv);
  d.setAuthTag(tag);
  return Buffer.concat([d.update(body), d.final()]).toString('utf8');
}

/** Recovery codes are compared without case, spaces or dashes (as people type them). */
function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

function newRecoveryCode(): string {
  const raw = randomBytes(8).toString('hex'); // 64 bits
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}-${raw.slice(12)}`;
}

export interface TwoFactorStatus {
  enabled: boolean;
  recovery_codes_left: number;
}

function requireSessionUser(ctx: Ctx) {
  const actor = requireActor(ctx);
  if (actor.apiToken) throw new DomainError('forbidden', 'API tokens cannot change two-factor sign-in.');
  return actor;
}

export async function twoFactorStatus(ctx: Ctx): Promise<TwoFactorStatus> {
  const actor = requireSessionUser(ctx);
  const repo = totpRepo(ctx.services.db);
  const row = await repo.find(actor.userId);
  const enabled = !!row?.enabled_at;
  // the recovery codes serve passkeys too
  const anyFactor = enabled || (await passkeysRepo(ctx.services.db).countForUser(actor.userId)) > 0;
  return { enabled, recovery_codes_left: anyFactor ? await repo.countUnusedRecoveryCodes(actor.userId) : 0 };
}

export async function startTwoFactor(ctx: Ctx): Promise<{ secret: string; otpauth_uri: string; qr_svg: string }> {
  const actor = requireSessionUser(ctx);
  const { services } = ctx;
  const repo = totpRepo(services.db);
  if ((await repo.find(actor.userId))?.enabled_at) {
    throw new DomainError('conflict', 'Two-factor sign-in is already on. Turn it off first to use another authenticator.');
  }
  const secret = generateSecret();
  const uri = generateURI({ issuer: ISSUER, label: actor.email, secret });
  await repo.startEnrolment(actor.userId, sealSecret(services.config.sessionSecret, secret), services.now());
  const qr = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, otpauth_uri: uri, qr_svg: qr };
}

/**
 * Checks a code against the user's authenticator, throttled per (account, address); throws on a
 * wrong, replayed or throttled code: 401 at sign-in, 400 inside a session (a wrong code there is
 * a form's mistake, not a session that ended, so the console must not try to renew it).
 */
async function checkCode(
  services: Services,
  userId: string,
  attempt: CodeAttempt,
  sealed: string,
  code: string,
  accept: (step: number) => Promise<number>,
  wrong: 'unauthorized' | 'validation',
) {
  const now = services.now();
  await throttleGate(services, userId, attempt, now);
  const field = wrong === 'unauthorized' ? 'totp_code' : 'code';
  const token = code.replace(/\s/g, '');
  const r = /^\d{6}$/.test(token)
    ? await verify({
        secret: openSecret(services.config.sessionSecret, sealed),
        token,
        epoch: Math.floor(now / 1000),
        epochTolerance: DRIFT_SECONDS,
      })
    : { valid: false as const };
  if (!r.valid) {
    await countWrongCode(services, userId, attempt, now);
    throw new DomainError(wrong, WRONG_CODE, { fields: { [field]: WRONG_CODE } });
  }
  // The TOTP strategy's result names the RFC 6238 step that matched (the HOTP type does not).
  const step = 'timeStep' in r ? r.timeStep : Math.floor(now / 1000 / 30) + r.delta;
  if ((await accept(step)) === 0) {
    await countWrongCode(services, userId, attempt, now);
    throw new DomainError(wrong, REPLAYED, { fields: { [field]: REPLAYED } });
  }
  await services.state.throttles.secondFactor.succeeded({ userId, ip: attempt.ip });
}

export async function confirmTwoFactor(ctx: Ctx, input: { code: string }): Promise<{ recovery_codes: string[] }> {
  const actor = requireSessionUser(ctx);
  const { services } = ctx;
  const repo = totpRepo(services.db);
  const row = await repo.find(actor.userId);
  if (!row) throw new DomainError('conflict', 'Start the enrolment first: scan the QR code, then enter a code.');
  if (row.enabled_at) throw new DomainError('conflict', 'Two-factor sign-in is already on.');
  const now = services.now();
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  // Switched on, its recovery codes and its audit row commit together (a refused code writes none).
  const enable = (step: number) =>
    withTransaction(services.db, async (tx) => {
      const enabled = await totpRepo(tx).enable(actor.userId, step, now);
      if (enabled === 0) return 0;
      await totpRepo(tx).replaceRecoveryCodes(
        actor.userId,
        codes.map((c) => ({ id: newId(), code_hash: hashSecret(normaliseRecoveryCode(c)) })),
        now,
      );
      await auditFromCtx(tx, ctx, 'user_update', { user_id: actor.userId, change: 'two_factor_enabled' });
      return enabled;
    });
  await checkCode(services, actor.userId, { email: actor.email, ip: ctx.ip }, row.secret_enc, input.code, enable, 'validation');
  return { recovery_codes: codes };
}

export async function disableTwoFactor(ctx: Ctx, input: { code?: string; password?: string }): Promise<void> {
  const actor = requireSessionUser(ctx);
  const { services } = ctx;
  const repo = totpRepo(services.db);
  const row = await repo.find(actor.userId);
  if (!row?.enabled_at) throw new DomainError('conflict', 'Two-factor sign-in is not on.');
  if (input.code) {
    await checkSecondFactor(services, actor.userId, { email: actor.email, ip: ctx.ip }, { totp_code: input.code }, 'validation');
  } else if (input.password) {
    const user = await usersRepo(services.db).findById(actor.userId);
    const now = services.now();
    const guard = services.state.throttles.login;
    const gate = await guard.check(actor.email, ctx.ip, now);
    if (!gate.allowed) throw tooManyAttempts(gate.retryAfter);
    if (!user || !(await verifyPassword(user.password_hash, input.password))) {
      await guard.failed(actor.email, ctx.ip, now);
      throw new DomainError('validation', 'The password is not correct.', { fields: { password: 'The password is not correct.' } });
    }
  } else {
    throw new DomainError('validation', 'Enter a current code or your password.', {
      fields: { code: 'Enter a current code or your password.' },
    });
  }
  await withTransaction(services.db, async (tx) => {
    // Recovery codes also stand in for passkeys: they stay while the user has one.
    if ((await passkeysRepo(tx).countForUser(actor.userId)) > 0) await totpRepo(tx).removeAuthenticator(actor.userId);
    else await totpRepo(tx).remove(actor.userId);
    await auditFromCtx(tx, ctx, 'user_update', { user_id: actor.userId, change: 'two_factor_disabled' });
  });
}

/**
 * The second step of signing in: nothing for users without two-factor sign-in (an authenticator
 * app or a passkey); otherwise a current code, a passkey of theirs or an unused recovery code, or
 * a 401 whose `fields.totp_code` and/or `fields.passkey` tell the form what to ask for. Runs
 * before any session or handoff code is issued.
 */
export async function checkSecondFactor(
  services: Services,
  userId: UserRow['id'],
  attempt: CodeAttempt,
  input: { totp_code?: string; recovery_code?: string; passkey?: AssertionInput },
  wrong: 'unauthorized' | 'validation' = 'unauthorized',
): Promise<void> {
  const repo = totpRepo(services.db);
  const row = await repo.find(userId);
  const totpOn = !!row?.enabled_at;
  const passkeys = await passkeysRepo(services.db).countForUser(userId);
  if (!totpOn && passkeys === 0) return;
  if (input.passkey && passkeys > 0 && attempt.host !== undefined && attempt.port !== undefined) {
    const now = services.now();
    await throttleGate(services, userId, attempt, now);
    try {
      await verifyAssertion(services, siteOf(services, attempt.host, attempt.port), input.passkey, {
        userId,
        requireUserVerification: false,
      });
    } catch (e) {
      if (!(e instanceof PasskeyRefused)) throw e;
      await countWrongCode(services, userId, attempt, now);
      await auditRefusal(services, e, { ip: attempt.ip, userAgent: attempt.userAgent ?? '', host: attempt.host, step: 'second factor' });
      throw e;
    }
    await services.state.throttles.secondFactor.succeeded({ userId, ip: attempt.ip });
    return;
  }
  if (input.totp_code && row?.enabled_at) {
    await checkCode(services, userId, attempt, row.secret_enc, input.totp_code, (step) => repo.acceptStep(userId, step), wrong);
    return;
  }
  if (input.recovery_code) {
    const now = services.now();
    await throttleGate(services, userId, attempt, now);
    if ((await repo.spendRecoveryCode(userId, hashSecret(normaliseRecoveryCode(input.recovery_code)), now)) === 0) {
      await countWrongCode(services, userId, attempt, now);
      const msg = 'The recovery code is not correct or was used already.';
      throw new DomainError('unauthorized', msg, { fields: { recovery_code: msg } });
    }
    await services.state.throttles.secondFactor.succeeded({ userId, ip: attempt.ip });
    return;
  }
  if (!totpOn) throw new DomainError('unauthorized', PASSKEY_REQUIRED, { fields: { passkey: PASSKEY_REQUIRED } });
  if (passkeys === 0) throw new DomainError('unauthorized', CODE_REQUIRED, { fields: { totp_code: CODE_REQUIRED } });
  throw new DomainError('unauthorized', PASSKEY_OR_CODE_REQUIRED, {
    fields: { totp_code: PASSKEY_OR_CODE_REQUIRED, passkey: PASSKEY_OR_CODE_REQUIRED },
  });
}

/** Ten new recovery codes for a user (stored as hashes), answered once. */
export async function newRecoveryCodes(db: DbScope, userId: string, now: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await totpRepo(db).replaceRecoveryCodes(
    userId,
    codes.map((c) => ({ id: newId(), code_hash: hashSecret(normaliseRecoveryCode(c)) })),
    now,
  );
  return codes;
}
