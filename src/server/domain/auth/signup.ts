// Self-service signup in two steps, so that the answer never tells whether an email already has
// an account: the request always answers the same, after the same work (validation, throttling,
// one argon2 hash); the rest happens after the answer. A new address gets a link (24 hours,
// single use) that creates the company and its admin when opened; the owner of an address that
// has an account is told that someone tried to sign up with it. The form asks for the person's
// name, the company's name and the subdomain (issue 25 item 4); the subdomain's availability can
// be checked while typing, which tells no more than the company's public status page does.
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
import { tooManyAttempts } from './throttle.ts';
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
export const SUBDOMAIN_TAKEN = 'This subdomain is already taken. Please choose another.';

/**
 * A subdomain free for a new company: the one chosen, else derived from a name ('Acme Corp' →
 * acme-corp), with -2, -3, ... when taken.
 */
export async function uniqueSubdomain(services: Services, name: string, chosen?: string | null): Promise<string> {
  let base = chosen || slugifySubdomain(name) || 'company';
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
export interface SignupInput {
  name: string;
  email: string;
  password: string;
  /** Left out (older clients): the person's name names the company */
  company_name?: string;
  /** Left out: derived from the company's name when the link is opened */
  subdomain?: string;
}

export async function requestSignup(ctx: Ctx, input: SignupInput, port: string): Promise<void> {
  const { services } = ctx;
  if (!services.config.signupEnabled) throw new DomainError('forbidden', SIGNUP_DISABLED);
  const name = input.name.trim();
  const companyName = input.company_name === undefined ? name : input.company_name.trim();
  const subdomain = input.subdomain === undefined ? null : input.subdomain.trim().toLowerCase();
  const email = input.email.trim().toLowerCase();
  const fields: Record<string, string> = {};
  if (!name) fields.name = 'Name is required.';
  else {
    const nameProblem = plainTextProblem('Name', name);
    if (nameProblem) fields.name = nameProblem;
  }
  if (input.company_name !== undefined && !companyName) fields.company_name = 'Company Name is required.';
  else if (input.company_name !== undefined) {
    // It is published on the company's status page.
    const companyProblem = plainTextProblem('Company Name', companyName);
    if (companyProblem) fields.company_name = companyProblem;
  }
  const sp = subdomain === null ? null : subdomainProblem(subdomain);
  if (sp) fields.subdomain = sp;
  if (!email) fields.email = 'Email is required.';
  else if (!isEmail(email)) fields.email = 'Please enter a valid email address.';
  const pw = passwordProblem(input.password);
  if (pw) fields.password = pw;
  const first = Object.values(fields)[0];
  if (first) throw new DomainError('validation', first, { fields });
  const now = services.now();
  const lim = services.state.throttles;
  const wait = await lim.signupIp.retryAfter(ctx.ip, now);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many signups from this address.');
  await lim.signupIp.hit(ctx.ip, now);
  // Whether a subdomain is taken does not depend on the email, and its status page tells anyway.
  if (subdomain && (await companiesRepo(services.db).findBySubdomain(subdomain)))
    throw new DomainError('conflict', SUBDOMAIN_TAKEN, { fields: { subdomain: SUBDOMAIN_TAKEN } });
  const passwordHash = await hashPassword(input.password);
  // At most 5 mails an hour to one address, whoever asks; the answer stays the same.
  if ((await lim.signupEmail.retryAfter(email, now)) > 0) return;
  await lim.signupEmail.hit(email, now);
  void mailSignupOutcome(services, { name, companyName, subdomain, email, passwordHash, port }).catch(() => undefined);
}

export interface SubdomainAvailability {
  subdomain: string;
  available: boolean;
  /** Why not, in the form's words; null when available */
  message: string | null;
  /** The company's address with this subdomain; null when the subdomain is not a valid one */
  address: string | null;
}

/**
 * The signup form's live check (and the company settings' one): whether a subdomain is valid and
 * free, and the address it gives. Anonymous callers only while signup is open; throttled per
 * client address, so it is no faster a way to list companies than their status pages.
 */
export async function checkSubdomain(ctx: Ctx, input: { subdomain: string }, port: string): Promise<SubdomainAvailability> {
  const { services } = ctx;
  if (!ctx.actor && !services.config.signupEnabled) throw new DomainError('forbidden', SIGNUP_DISABLED);
  const now = services.now();
  const lim = services.state.throttles.subdomainCheck;
  const wait = await lim.retryAfter(ctx.ip, now);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many subdomain checks.');
  await lim.hit(ctx.ip, now);
  const subdomain = input.subdomain.trim().toLowerCase();
  const problem = subdomainProblem(subdomain);
  if (problem) return { subdomain, available: false, message: problem, address: null };
  const { config } = services;
  const address = tenantOrigin(config.publicScheme, subdomain, config.productDomain, port);
  const taken = await companiesRepo(services.db).findBySubdomain(subdomain);
  return { subdomain, available: !taken, message: taken ? SUBDOMAIN_TAKEN : null, address };
}

async function mailSignupOutcome(
  services: Services,
  p: { name: string; companyName: string; subdomain: string | null; email: string; passwordHash: string; port: string },
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
    company_name: p.companyName,
    subdomain: p.subdomain,
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
  const companyName = row.company_name ?? name;
  const companyId = newId();
  const userId = newId();
  const who = { userId, role: 'customer_admin', tenantId: companyId, sessionId: null };
  const { config } = services;
  let subdomain = '';
  let code = '';
  // The company, its admin, their audit rows and the handoff code commit together.
  for (let attempt = 0; ; attempt++) {
    // the chosen subdomain, unless another company took it since the form was sent
    subdomain = await uniqueSubdomain(services, companyName, row.subdomain);
    try {
      await withTransaction(services.db, async (tdb) => {
        if ((await pendingSignupsRepo(tdb).consume(row.id, email, now)) === 0)
          throw new DomainError('validation', SIGNUP_INVALID, { fields: { token: SIGNUP_INVALID } });
        if (await usersRepo(tdb).findByEmail(email)) throw new DomainError('conflict', EMAIL_TAKEN, { fields: { email: EMAIL_TAKEN } });
        await companiesRepo(tdb).insert({
          id: companyId,
          name: companyName,
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
          is_active: true,
          password_hash: row.password_hash,
          session_version: 1,
          created_at: now,
          updated_at: now,
        });
        await auditFromCtx(tdb, ctx, 'tenant_create', { company_id: companyId, subdomain, via: 'signup' }, who);
        await auditFromCtx(tdb, ctx, 'user_create', { user_id: userId, user_type: 2, via: 'signup' }, who);
        const admin = (await usersRepo(tdb).findById(userId))!;
        code = await createHandoffCode(services, admin, `${subdomain}.${config.productDomain}`, false, tdb);
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
  const home = tenantOrigin(config.publicScheme, subdomain, config.productDomain, port);
  const moved = row.subdomain && row.subdomain !== subdomain;
  return {
    message: moved
      ? `Your account is ready. ${row.subdomain} was taken in the meantime, so your company's address is ${home}; you can change it in Settings → Company. Taking you to your company's dashboard…`
      : "Your account is ready. Taking you to your company's dashboard…",
    user: toCurrentUser(user, company),
    login_url: `${home}/login`,
    redirect_to: `${home}/auth/handoff?code=${code}`,
  };
}
