// Self-service signup in two steps, so that the answer never tells whether an email already has
// an account: the request always answers the same, after the same work (validation, throttling,
// one argon2 hash); the rest happens after the answer. A new address gets a link (24 hours,
// single use) that creates the company and its admin when opened; the owner of an address that
// has an account is told that someone tried to sign up with it.
import type { Ctx, Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { mainOrigin, slugifySubdomain, subdomainProblem, tenantOrigin } from '../../../lib/hosts.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { withTransaction } from '../../db/scope.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { pendingSignupsRepo } from '../../db/repositories/pending-signups-repo.ts';
import { hashPassword } from './password.ts';
import { limiters, tooManyAttempts } from './throttle.ts';
import { hashSecret, newSecret } from './tokens.ts';
import { auditFromCtx } from '../audit/record.ts';
import { passwordProblem } from '../users/rules.ts';
import { isEmail } from '../../../lib/formats.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { sendMail } from '../../notify/mailer.ts';
import { toCurrentUser, type CurrentUserView } from './account.ts';
import { createHandoffCode } from './handoff.ts';

export const SIGNUP_ANSWER = 'Check your e-mail to finish creating your account.';
export const SIGNUP_LINK_SECONDS = 24 * 60 * 60;
export const SIGNUP_INVALID = 'This signup link is invalid or has expired. Please sign up again.';
const SIGNUP_DISABLED = 'Signup is disabled on this platform. Please contact the administrator for an account.';
const EMAIL_TAKEN = 'An account with this email already exists. Sign in, or reset your password if you have forgotten it.';

/** A subdomain free for a new company, derived from a name ('Acme Corp' → acme-corp, acme-corp-2, ...). */
export async function uniqueSubdomain(services: Services, name: string): Promise<string> {
  let base = slugifySubdomain(name) || 'company';
  if (subdomainProblem(base)) base = `${base}-co`.replace(/^-+/, '');
  if (subdomainProblem(base)) base = 'company';
  const repo = companiesRepo(services.db);
  for (let i = 1; i < 1000; i++) {
    const candidate = i === 1 ? base : `${base.slice(0, 56)}-${i}`;
    if (!(await repo.findBySubdomain(candidate))) return candidate;
  }
  return `${base.slice(0, 50)}-${newId().slice(0, 8)}`;
}

/** Always answers SIGNUP_ANSWER (or a validation, throttling or disabled problem that does not
 * depend on the email being known). */
export async function requestSignup(ctx: Ctx, input: { name: string; email: string; password: string }, port: string): Promise<void> {
  const { services } = ctx;
  if (!services.config.signupEnabled) throw new DomainError('forbidden', SIGNUP_DISABLED);
  const name = input.name.trim();
  const email = input.email.trim().toLowerCase();
  const fields: Record<string, string> = {};
  if (!name) fields.name = 'Name is required.';
  // It becomes the company's name too, published on its status page.
  const nameProblem = plainTextProblem('Name', name);
  if (nameProblem) fields.name = nameProblem;
  if (!email) fields.email = 'Email is required.';
  else if (!isEmail(email)) fields.email = 'Please enter a valid email address.';
  const pw = passwordProblem(input.password);
  if (pw) fields.password = pw;
  const first = Object.values(fields)[0];
  if (first) throw new DomainError('validation', first, { fields });
  const now = services.now();
  const lim = limiters(services);
  const wait = await lim.signupIp.retryAfter(ctx.ip, now);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many signups from this address.');
  await lim.signupIp.hit(ctx.ip, now);
  const passwordHash = await hashPassword(input.password);
  // At most 5 mails an hour to one address, whoever asks; the answer stays the same.
  if ((await lim.signupEmail.retryAfter(email, now)) > 0) return;
  await lim.signupEmail.hit(email, now);
  void mailSignupOutcome(services, { name, email, passwordHash, port }).catch(() => undefined);
}

async function mailSignupOutcome(
  services: Services,
  p: { name: string; email: string; passwordHash: string; port: string },
): Promise<void> {
  const { config } = services;
  const origin = mainOrigin(config.publicScheme, config.productDomain, p.port);
  const existing = await usersRepo(services.db).findByEmail(p.email);
  if (existing) {
    await sendMail(services, {
      to: existing.email,
      subject: `Someone tried to sign up to ${config.productName} with your address`,
      text:
        `Hello ${existing.full_name},\n\nSomeone tried to create a new ${config.productName} account with this email address, which already has an account.\n\n` +
        `If it was you, sign in instead: ${origin}/login\nIf you have forgotten your password, reset it: ${origin}/forgotpassword\n\n` +
        `If it was not you, ignore this email; nothing was changed.\n`,
      kind: 'signup_existing_account',
    });
    return;
  }
  const now = services.now();
  const secret = newSecret();
  await pendingSignupsRepo(services.db).insert({
    id: newId(),
    code_hash: secret.hash,
    email: p.email,
    name: p.name,
    password_hash: p.passwordHash,
    created_at: now,
    expires_at: now + SIGNUP_LINK_SECONDS * 1000,
    used_at: null,
  });
  const link = `${origin}/signup?token=${secret.value}`;
  await sendMail(services, {
    to: p.email,
    subject: `Finish creating your ${config.productName} account`,
    text:
      `Hello ${p.name},\n\nOpen this link within 24 hours to confirm your address and create your ${config.productName} account:\n\n${link}\n\n` +
      `If you did not sign up, ignore this email; no account is created.\n`,
    kind: 'signup_confirm',
    link,
  });
}

/**
 * Opens a signup link: creates the company on the Starter plan and its admin, and hands the new
 * admin over to the company's host signed in (a one-time handoff code, as login does across
 * hosts): the mailed link proved the address, and the password was chosen at signup.
 */
export async function verifySignup(
  ctx: Ctx,
  input: { token: string },
  port: string,
): Promise<{ message: string; user: CurrentUserView; login_url: string; redirect_to: string }> {
  const { services } = ctx;
  if (!services.config.signupEnabled) throw new DomainError('forbidden', SIGNUP_DISABLED);
  const pending = pendingSignupsRepo(services.db);
  const row = input.token ? await pending.findByHash(hashSecret(input.token)) : undefined;
  const now = services.now();
  if (!row || row.used_at !== null || row.expires_at <= now)
    throw new DomainError('validation', SIGNUP_INVALID, { fields: { token: SIGNUP_INVALID } });
  const { email, name } = row;
  const companyId = newId();
  const userId = newId();
  let subdomain = '';
  for (let attempt = 0; ; attempt++) {
    subdomain = await uniqueSubdomain(services, name);
    try {
      await withTransaction(services.db, async (tdb) => {
        if ((await pendingSignupsRepo(tdb).consume(row.id, email, now)) === 0)
          throw new DomainError('validation', SIGNUP_INVALID, { fields: { token: SIGNUP_INVALID } });
        if (await usersRepo(tdb).findByEmail(email)) throw new DomainError('conflict', EMAIL_TAKEN, { fields: { email: EMAIL_TAKEN } });
        await companiesRepo(tdb).insert({
          id: companyId,
          name,
          email,
          url: null,
          phone: null,
          subdomain,
          slug: subdomain,
          plan: 'starter',
          created_at: now,
          updated_at: now,
          company_metadata: null,
          horizontal_logo_base64: null,
          logo_base64: null,
        });
        await usersRepo(tdb).insert({
          id: userId,
          email,
          full_name: name,
          user_type: 2,
          company_id: companyId,
          is_active: 1,
          password_hash: row.password_hash,
          session_version: 1,
          created_at: now,
          updated_at: now,
        });
      });
      break;
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      // Another signup took the email or the subdomain at the same moment.
      if ((await usersRepo(services.db).findByEmail(email)) || attempt >= 2)
        throw new DomainError('conflict', EMAIL_TAKEN, { fields: { email: EMAIL_TAKEN } });
    }
  }
  const user = (await usersRepo(services.db).findById(userId))!;
  const company = await companiesRepo(services.db).findById(companyId);
  const who = { userId, role: 'customer_admin', tenantId: companyId, sessionId: null };
  await auditFromCtx(ctx, 'tenant_create', { company_id: companyId, subdomain, via: 'signup' }, who);
  await auditFromCtx(ctx, 'user_create', { user_id: userId, user_type: 2, via: 'signup' }, who);
  const { config } = services;
  const home = tenantOrigin(config.publicScheme, subdomain, config.productDomain, port);
  const code = await createHandoffCode(services, user, `${subdomain}.${config.productDomain}`, false);
  return {
    message: "Your account is ready. Taking you to your company's dashboard…",
    user: toCurrentUser(user, company),
    login_url: `${home}/login`,
    redirect_to: `${home}/auth/handoff?code=${code}`,
  };
}
