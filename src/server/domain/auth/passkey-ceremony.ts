// The WebAuthn ceremonies (via @simplewebauthn/server): challenges issued and kept server-side
// (single use, five minutes, bound to the host they were issued on), registration verified and
// assertions verified against the stored credential and its signature counter.
//
// RP ID: the product domain. A passkey is bound to its RP ID, and users sign in both on the main
// host and on their company's subdomain (acme.<domain>); the product domain is a registrable
// suffix of both, so one passkey works on either, and keeps working when a company moves to
// another subdomain. The expected origin is the host the ceremony runs on (as the browser reaches
// it), which the session layer has already limited to the main host and active company hosts;
// another company's host is refused later by the tenancy rule.
// One exception: browsers do not let acme.localhost claim "localhost" (it has no registrable
// domain), so with PRODUCT_DOMAIN=localhost (local use, tests) the RP ID is the host itself and a
// passkey works on the host where it was added.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { passkeysRepo, type PasskeyRow } from '../../db/repositories/passkeys-repo.ts';
import { recordAudit } from '../audit/record.ts';

export const CHALLENGE_MS = 5 * 60_000;
const RP_NAME = 'StatusWatch';

export const CHALLENGE_GONE = 'This passkey request has expired or was used already. Please try again.';
export const NOT_VERIFIED = 'Your passkey could not be verified. Please try again.';
export const UNKNOWN_PASSKEY = 'This passkey is not registered with StatusWatch. Sign in with your password, or use another passkey.';
export const OTHER_USER = 'This passkey belongs to another account.';
export const CLONED =
  'This passkey was refused: its signature counter went backwards, which happens when an authenticator was copied. Sign in another way and remove it.';

/** Where a ceremony runs: the host (no port) and the origin the browser sees for it. */
export interface CeremonySite {
  host: string;
  origin: string;
}

export function siteOf(services: Services, host: string, port: string): CeremonySite {
  return { host, origin: `${services.config.publicScheme}://${host}${port}` };
}

function rpId(services: Services, host: string): string {
  const domain = services.config.productDomain;
  return domain === 'localhost' ? host : domain;
}

/** A browser's answer as the contract validated it (its shape checked by the library). */
export interface AssertionInput {
  challenge_id: string;
  response: { id: string; [key: string]: unknown };
}

async function issueChallenge(
  services: Services,
  purpose: 'register' | 'authenticate',
  challenge: string,
  host: string,
  userId: string | null,
): Promise<string> {
  const now = services.now();
  const id = newId();
  const repo = passkeysRepo(services.db);
  await repo.purgeChallenges(now);
  await repo.insertChallenge({ id, challenge, purpose, user_id: userId, host, created_at: now, expires_at: now + CHALLENGE_MS });
  return id;
}

/** Takes the challenge once; refuses an unknown, used, expired or misplaced one. */
async function takeChallenge(services: Services, id: string, purpose: 'register' | 'authenticate', host: string, userId: string | null) {
  const row = await passkeysRepo(services.db).consumeChallenge(id);
  if (!row || row.purpose !== purpose || row.host !== host || row.expires_at <= services.now() || row.user_id !== userId) {
    throw new DomainError('unauthorized', CHALLENGE_GONE, { fields: { passkey: CHALLENGE_GONE } });
  }
  return row;
}

function transportsOf(row: PasskeyRow): AuthenticatorTransport[] {
  try {
    const t = JSON.parse(row.transports);
    return Array.isArray(t) ? t : [];
  } catch {
    return [];
  }
}

export async function registrationOptions(
  services: Services,
  user: { id: string; email: string; full_name: string },
  host: string,
): Promise<{ challenge_id: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const existing = await passkeysRepo(services.db).listForUser(user.id);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rpId(services, host),
    userName: user.email,
    userDisplayName: user.full_name || user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    // a passkey: discoverable, so the password-less sign-in can find it without an email
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
    timeout: CHALLENGE_MS,
  });
  const challenge_id = await issueChallenge(services, 'register', options.challenge, host, user.id);
  return { challenge_id, options };
}

/** Verifies a new credential for `userId`; answers what to store. */
export async function verifyRegistration(
  services: Services,
  userId: string,
  site: CeremonySite,
  input: { challenge_id: string; response: RegistrationResponseJSON },
): Promise<{ credential_id: string; public_key: string; counter: number; transports: string }> {
  const row = await takeChallenge(services, input.challenge_id, 'register', site.host, userId);
  let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
  try {
    const r = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: row.challenge,
      expectedOrigin: site.origin,
      expectedRPID: rpId(services, site.host),
      requireUserVerification: true,
    });
    info = r.verified ? r.registrationInfo : undefined;
  } catch {
    info = undefined;
  }
  if (!info) throw new DomainError('validation', NOT_VERIFIED, { fields: { response: NOT_VERIFIED } });
  if (await passkeysRepo(services.db).findByCredentialId(info.credential.id)) {
    const msg = 'This passkey is registered already.';
    throw new DomainError('conflict', msg, { fields: { response: msg } });
  }
  return {
    credential_id: info.credential.id,
    public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: JSON.stringify(input.response.response.transports ?? []),
  };
}

export async function authenticationOptions(
  services: Services,
  host: string,
  userVerification: 'required' | 'preferred',
): Promise<{ challenge_id: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  // No allowCredentials: the authenticator offers its discoverable passkeys for this RP, so the
  // answer says nothing about which accounts have passkeys.
  const options = await generateAuthenticationOptions({ rpID: rpId(services, host), userVerification, timeout: CHALLENGE_MS });
  const challenge_id = await issueChallenge(services, 'authenticate', options.challenge, host, null);
  return { challenge_id, options };
}

/** A refused assertion: what the user reads, and why for the audit log. */
export class PasskeyRefused extends DomainError {
  readonly reason: string;
  readonly userId: string | null;
  constructor(message: string, reason: string, userId: string | null) {
    super('unauthorized', message, { fields: { passkey: message } });
    this.reason = reason;
    this.userId = userId;
  }
}

/**
 * Verifies an assertion: the challenge (once, here, unexpired), the credential (known, and the
 * expected user's when `userId` is given), origin, RP ID, signature, user verification when
 * asked, and the counter (never backwards). Records the use. Answers the passkey.
 */
export async function verifyAssertion(
  services: Services,
  site: CeremonySite,
  input: AssertionInput,
  opts: { userId?: string; requireUserVerification: boolean },
): Promise<PasskeyRow> {
  const repo = passkeysRepo(services.db);
  const challenge = await passkeysRepo(services.db).consumeChallenge(input.challenge_id);
  const credId = typeof input.response?.id === 'string' ? input.response.id : '';
  const passkey = credId ? await repo.findByCredentialId(credId) : undefined;
  const who = opts.userId ?? passkey?.user_id ?? null;
  if (
    !challenge ||
    challenge.purpose !== 'authenticate' ||
    challenge.host !== site.host ||
    challenge.expires_at <= services.now() ||
    challenge.user_id !== null
  ) {
    throw new PasskeyRefused(CHALLENGE_GONE, 'challenge unknown, used, expired or issued elsewhere', who);
  }
  if (!passkey) throw new PasskeyRefused(UNKNOWN_PASSKEY, 'credential not registered', who);
  if (opts.userId && passkey.user_id !== opts.userId) throw new PasskeyRefused(OTHER_USER, "another user's credential", who);
  let newCounter: number;
  try {
    const r = await verifyAuthenticationResponse({
      response: input.response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge.challenge,
      expectedOrigin: site.origin,
      expectedRPID: rpId(services, site.host),
      credential: {
        id: passkey.credential_id,
        publicKey: Buffer.from(passkey.public_key, 'base64url'),
        counter: passkey.counter,
        transports: transportsOf(passkey),
      },
      requireUserVerification: opts.requireUserVerification,
    });
    if (!r.verified) throw new Error('signature not verified');
    newCounter = r.authenticationInfo.newCounter;
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    if (/counter/i.test(text)) throw new PasskeyRefused(CLONED, `counter regression: ${text}`, who);
    throw new PasskeyRefused(NOT_VERIFIED, text.slice(0, 300), who);
  }
  if ((await repo.recordUse(passkey.id, passkey.counter, newCounter, services.now())) === 0) {
    throw new PasskeyRefused(CLONED, 'counter changed by a concurrent sign-in', who);
  }
  return passkey;
}

/** The audit row of a refused passkey (sign-in or second factor). */
export async function auditRefusal(
  services: Services,
  e: PasskeyRefused,
  where: { ip: string; userAgent: string; host: string; step: 'password-less' | 'second factor' | 'confirm' },
): Promise<void> {
  await recordAudit(services.db, services, {
    event: 'passkey_sign_in_failed',
    source: 'server',
    userId: e.userId,
    ip: where.ip,
    userAgent: where.userAgent,
    details: { host: where.host, step: where.step, reason: e.reason },
  });
}
