// Invitations: a super admin names a person, their company and role; the person gets a mailed
// one-time link to their company's address and chooses their own password there (nobody else
// ever knows it). A link is valid for 7 days and works once; a resend replaces it (the old
// link dies) and is throttled; a revoked invitation's link is dead too. While the platform
// setting allows it (issue 25 item 5), a company admin invites, resends and revokes for their
// own company only, within its Max Users, as an admin or a viewer.
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso } from '../ids.ts';
import { companyScope, requireActor, requirePermission } from '../authz.ts';
import { withTransaction } from '../../db/scope.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { invitationsRepo, type InvitationWithCompany } from '../../db/repositories/invitations-repo.ts';
import { hashPassword } from '../auth/password.ts';
import { hashSecret, newSecret } from '../auth/tokens.ts';
import { auditFromCtx, recordAudit } from '../audit/record.ts';
import { sendMail } from '../../notify/mailer.ts';
import { mainOrigin, tenantOrigin } from '../../../lib/hosts.ts';
import { roleOfUserType } from '../../../lib/permissions.ts';
import { isEmail } from '../../../lib/formats.ts';
import { passwordProblem } from './rules.ts';
import { isCompanyLinkHost } from '../auth/account-links.ts';
import { companyAdminsMayInvite } from '../platform/team-invitations.ts';

export const INVITATION_DAYS = 7;
const INVITATION_MS = INVITATION_DAYS * 24 * 60 * 60 * 1000;
/** A resend waits this long after the last mail, so nobody can flood an inbox from the console. */
export const RESEND_AFTER_SECONDS = 60;

export const INVITATION_INVALID =
  'This invitation link is not valid. It may have been revoked or replaced by a newer one; ask your administrator for a new invitation.';
export const INVITATION_USED = 'This invitation has already been used. Please sign in with your email and password.';
export const INVITATION_EXPIRED = 'This invitation has expired. Ask your administrator to send it again.';
export const MAIL_FAILED =
  'The invitation e-mail could not be sent (the mail server did not accept it). The invitation is listed; resend it in a minute.';
export const COMPANY_INACTIVE = 'This company is not active at the moment. Ask your administrator.';
const EMAIL_TAKEN = 'A user with this email already exists.';
export const ADMIN_INVITES_OFF = 'On this platform only the platform administrator invites people. Ask them to invite your colleagues.';
const ALREADY_INVITED = 'This email already has a pending invitation. Resend it instead.';

export interface InvitationView {
  id: string;
  email: string;
  full_name: string;
  user_type: '2' | '3';
  company_id: string;
  company_name: string | null;
  status: 'invited' | 'expired';
  created_at: string;
  sent_at: string;
  expires_at: string;
}

function toView(i: InvitationWithCompany, now: number): InvitationView {
  return {
    id: i.id,
    email: i.email,
    full_name: i.full_name,
    user_type: String(i.user_type) as '2' | '3',
    company_id: i.company_id,
    company_name: i.company_name,
    status: i.expires_at > now ? 'invited' : 'expired',
    created_at: toIso(i.created_at),
    sent_at: toIso(i.sent_at),
    expires_at: toIso(i.expires_at),
  };
}

export async function listInvitations(ctx: Ctx, query: { company_id?: string } = {}): Promise<InvitationView[]> {
  requirePermission(ctx, 'view', 'users', 'view invitations');
  const rows = await invitationsRepo(ctx.services.db).listOpen({ companyId: companyScope(ctx, query.company_id) });
  return rows.map((r) => toView(r, ctx.services.now()));
}

export interface InvitationInput {
  email?: string;
  name?: string;
  company_id?: string;
  user_type?: string | number;
}

function fail(fields: Record<string, string>): void {
  const messages = Object.values(fields);
  if (messages.length) throw new DomainError('validation', messages.join(' '), { fields });
}

/** Mails the link; with SMTP_URL unset it goes to the server log like every account mail. */
async function mailInvitation(
  ctx: Ctx,
  inv: { email: string; full_name: string; company_id: string },
  token: string,
  port: string,
): Promise<void> {
  const { config } = ctx.services;
  const company = await companiesRepo(ctx.services.db).findById(inv.company_id);
  const origin = company?.subdomain
    ? tenantOrigin(config.publicScheme, company.subdomain, config.productDomain, port)
    : mainOrigin(config.publicScheme, config.productDomain, port);
  const link = `${origin}/invite?token=${token}`;
  await sendMail(ctx.services, {
    to: inv.email,
    subject: `You are invited to ${company?.name ?? 'your company'} on ${config.productName}`,
    text: `Hello ${inv.full_name},\n\nYou are invited to join ${company?.name ?? 'your company'} on ${config.productName}. Open this link within ${INVITATION_DAYS} days to choose your password:\n\n${link}\n\nThe link works once. If you did not expect this email, ignore it.\n`,
    kind: 'invitation',
    link,
    companyId: inv.company_id,
  }).catch((e: unknown) => {
    // the mailer has logged why; the invitation stays listed and can be resent
    throw new DomainError('unavailable', MAIL_FAILED, { cause: e });
  });
}

/**
 * Who may send (or resend) invitations, and to which company: super admins to any (null here),
 * company admins to their own while the platform setting allows it; everyone else is refused.
 */
async function inviterScope(ctx: Ctx): Promise<{ userId: string; companyId: string | null }> {
  const actor = requireActor(ctx);
  if (actor.role === 'super_admin') return { userId: actor.userId, companyId: null };
  if (actor.role !== 'customer_admin' || !actor.companyId)
    throw new DomainError('forbidden', 'You do not have permission to create users.');
  if (!(await companyAdminsMayInvite(ctx.services))) throw new DomainError('forbidden', ADMIN_INVITES_OFF);
  return { userId: actor.userId, companyId: actor.companyId };
}

export async function createInvitation(ctx: Ctx, input: InvitationInput, port: string): Promise<InvitationView> {
  const actor = await inviterScope(ctx);
  // a company admin's invitation is for their own company, whatever the body names
  if (actor.companyId) input = { ...input, company_id: actor.companyId };
  const fields: Record<string, string> = {};
  const full_name = (input.name ?? '').trim();
  const email = (input.email ?? '').trim().toLowerCase();
  const type = Number(input.user_type);
  if (!full_name) fields.name = 'Full Name is required.';
  if (!email) fields.email = 'Email is required.';
  else if (!isEmail(email)) fields.email = 'Please enter a valid email address.';
  if (type !== 2 && type !== 3) fields.user_type = 'Invitations are for company admins (2) and viewers (3).';
  if (!input.company_id) fields.company_id = 'Company is required.';
  fail(fields);
  const { db, now } = { db: ctx.services.db, now: ctx.services.now() };
  const company = await companiesRepo(db).findById(input.company_id!);
  if (!company) fail({ company_id: 'The selected company does not exist.' });
  if (await usersRepo(db).findByEmail(email)) throw new DomainError('conflict', EMAIL_TAKEN, { fields: { email: EMAIL_TAKEN } });
  if (await invitationsRepo(db).findOpenByEmail(email))
    throw new DomainError('conflict', ALREADY_INVITED, { fields: { email: ALREADY_INVITED } });
  const used = (await usersRepo(db).countByCompany(company!.id)) + (await invitationsRepo(db).countOpenForCompany(company!.id, now));
  if (used >= company!.max_users)
    throw new DomainError(
      'limit_exceeded',
      `${company!.name} already has its maximum of ${company!.max_users} user${company!.max_users === 1 ? '' : 's'} (pending invitations count). ${actor.companyId ? 'Ask the platform administrator to raise Max Users' : 'Raise Max Users'} to invite more.`,
    );
  const secret = newSecret();
  const id = newId();
  // The invitation and its audit row commit together; the mail goes after the commit (no network
  // inside a transaction), and a failed mail leaves the invitation listed, to be resent.
  await withTransaction(db, async (tx) => {
    await invitationsRepo(tx).insert({
      id,
      company_id: company!.id,
      email,
      full_name,
      user_type: type,
      token_hash: secret.hash,
      invited_by: actor.userId,
      created_at: now,
      sent_at: now,
      expires_at: now + INVITATION_MS,
      used_at: null,
      revoked_at: null,
    });
    await auditFromCtx(
      tx,
      ctx,
      'user_update',
      { change: 'invitation_sent', invitation_id: id, email, user_type: type },
      undefined,
      company!.id,
    );
  });
  await mailInvitation(ctx, { email, full_name, company_id: company!.id }, secret.value, port);
  return toView((await invitationsRepo(db).findById(id))!, now);
}

/** An open invitation the caller may act on: another company's is not found for a company admin. */
async function loadOpen(ctx: Ctx, id: string, companyId: string | null): Promise<InvitationWithCompany> {
  const inv = await invitationsRepo(ctx.services.db).findById(id);
  if (!inv || inv.used_at !== null || inv.revoked_at !== null) throw notFound('Invitation');
  if (companyId && inv.company_id !== companyId) throw notFound('Invitation');
  return inv;
}

export async function resendInvitation(ctx: Ctx, id: string, port: string): Promise<InvitationView> {
  const actor = await inviterScope(ctx);
  const inv = await loadOpen(ctx, id, actor.companyId);
  const now = ctx.services.now();
  const wait = Math.ceil((inv.sent_at + RESEND_AFTER_SECONDS * 1000 - now) / 1000);
  if (wait > 0)
    throw new DomainError(
      'rate_limited',
      `This invitation was sent moments ago. You can resend it in ${wait} second${wait === 1 ? '' : 's'}.`,
      {
        retryAfter: wait,
      },
    );
  const secret = newSecret();
  await withTransaction(ctx.services.db, async (tx) => {
    if ((await invitationsRepo(tx).replaceToken(id, secret.hash, now, now + INVITATION_MS)) === 0) throw notFound('Invitation');
    await auditFromCtx(
      tx,
      ctx,
      'user_update',
      { change: 'invitation_resent', invitation_id: id, email: inv.email },
      undefined,
      inv.company_id,
    );
  });
  await mailInvitation(ctx, inv, secret.value, port);
  return toView((await invitationsRepo(ctx.services.db).findById(id))!, now);
}

/** Revoking takes access away, so a company admin may revoke their company's invitations even while the setting is off. */
export async function revokeInvitation(ctx: Ctx, id: string): Promise<void> {
  const actor = requireActor(ctx);
  if (actor.role !== 'super_admin' && actor.role !== 'customer_admin')
    throw new DomainError('forbidden', 'You do not have permission to update users.');
  const inv = await loadOpen(ctx, id, actor.role === 'super_admin' ? null : companyScope(ctx));
  await withTransaction(ctx.services.db, async (tx) => {
    if ((await invitationsRepo(tx).revoke(id, ctx.services.now())) === 0) throw notFound('Invitation');
    await auditFromCtx(
      tx,
      ctx,
      'user_update',
      { change: 'invitation_revoked', invitation_id: id, email: inv.email },
      undefined,
      inv.company_id,
    );
  });
}

/** The invitation behind a link, or the clear reason it no longer works. */
async function openByToken(ctx: Ctx, token: string | undefined): Promise<InvitationWithCompany> {
  const inv = token ? await invitationsRepo(ctx.services.db).findByHash(hashSecret(token)) : undefined;
  if (!inv || inv.revoked_at !== null) throw new DomainError('not_found', INVITATION_INVALID);
  // a link works only on its company's address, as if unknown anywhere else
  if (!(await isCompanyLinkHost(ctx.services, inv.company_id, ctx.host))) throw new DomainError('not_found', INVITATION_INVALID);
  if (inv.used_at !== null) throw new DomainError('conflict', INVITATION_USED);
  if (inv.expires_at <= ctx.services.now()) throw new DomainError('not_found', INVITATION_EXPIRED);
  return inv;
}

export interface InvitationLookup {
  email: string;
  full_name: string;
  company_name: string | null;
  user_type: '2' | '3';
  expires_at: string;
}

export async function lookupInvitation(ctx: Ctx, input: { token: string }): Promise<InvitationLookup> {
  const inv = await openByToken(ctx, input.token);
  return {
    email: inv.email,
    full_name: inv.full_name,
    company_name: inv.company_name,
    user_type: String(inv.user_type) as '2' | '3',
    expires_at: toIso(inv.expires_at),
  };
}

/** The invitee chooses a password: the account exists from now on, ready to sign in. */
export async function acceptInvitation(ctx: Ctx, input: { token: string; password: string }): Promise<{ email: string }> {
  const { services } = ctx;
  const inv = await openByToken(ctx, input.token);
  const pw = passwordProblem(input.password);
  if (pw) throw new DomainError('validation', pw, { fields: { password: pw } });
  const passwordHash = await hashPassword(input.password);
  const userId = newId();
  const now = services.now();
  try {
    await withTransaction(services.db, async (db) => {
      if ((await invitationsRepo(db).consume(inv.id, hashSecret(input.token), now)) === 0)
        throw new DomainError('not_found', INVITATION_INVALID);
      const company = await companiesRepo(db).lockById(inv.company_id);
      if (!company) throw new DomainError('not_found', INVITATION_INVALID);
      // its users could not sign in; the invitation stays usable once the company is active again
      if (!company.is_active) throw new DomainError('forbidden', COMPANY_INACTIVE);
      if ((await usersRepo(db).countByCompany(company.id)) >= company.max_users)
        throw new DomainError('limit_exceeded', `${company.name} has no room for another user. Ask your administrator to raise its limit.`);
      await usersRepo(db).insert({
        id: userId,
        email: inv.email,
        full_name: inv.full_name,
        user_type: inv.user_type,
        company_id: company.id,
        is_active: true,
        password_hash: passwordHash,
        session_version: 1,
        created_at: now,
        updated_at: now,
        last_login_at: null,
      });
      await recordAudit(db, services, {
        event: 'user_create',
        source: 'server',
        userId,
        userRole: roleOfUserType(inv.user_type),
        tenantId: inv.company_id,
        userAgent: ctx.userAgent,
        ip: ctx.ip,
        details: { user_id: userId, user_type: inv.user_type, via: 'invitation', invitation_id: inv.id },
      });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new DomainError('conflict', EMAIL_TAKEN);
    throw e;
  }
  return { email: inv.email };
}
