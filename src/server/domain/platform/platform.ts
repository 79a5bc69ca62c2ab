// The Settings screen's platform section (super admins): the feature flags with the operator's
// FLAG_ENABLE_* locks, whether signup is open (SIGNUP_ENABLED, an environment setting only),
// whether company admins may invite teammates, and the mail setup, with a test mail through the
// configured SMTP server.
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { requireSuperAdmin } from '../authz.ts';
import { getFlags } from '../flags/flags.ts';
import { SlidingWindow } from '../auth/throttle.ts';
import { auditFromCtx } from '../audit/record.ts';
import { sendMail } from '../../notify/mailer.ts';
import { setTeamInvitations, teamInvitationsSetting } from './team-invitations.ts';

export interface PlatformSettings {
  flags: { name: string; enabled: boolean; locked: boolean; reason: string | null }[];
  signup_enabled: boolean;
  signup_source: 'env';
  smtp_configured: boolean;
  mail_from: string;
  /** Company admins may invite teammates (issue 25 item 5) */
  company_admins_invite: boolean;
  company_admins_invite_source: 'default' | 'set';
}

export async function getPlatformSettings(ctx: Ctx): Promise<PlatformSettings> {
  requireSuperAdmin(ctx);
  const overrides = ctx.services.config.flagOverrides;
  const flags = Object.entries(await getFlags(ctx)).map(([name, enabled]) => {
    const locked = name in overrides;
    return {
      name,
      enabled,
      locked,
      reason: locked ? `Set by the operator (FLAG_${name}=${overrides[name]}) and cannot be changed here.` : null,
    };
  });
  const c = ctx.services.config;
  const invitations = await teamInvitationsSetting(ctx.services);
  return {
    flags,
    signup_enabled: c.signupEnabled,
    signup_source: 'env',
    smtp_configured: Boolean(c.smtpUrl),
    mail_from: c.mailFrom,
    company_admins_invite: invitations.enabled,
    company_admins_invite_source: invitations.source,
  };
}

/** The settings a super admin changes on this screen (flags have their own call). */
export async function updatePlatformSettings(ctx: Ctx, input: { company_admins_invite?: boolean }): Promise<PlatformSettings> {
  requireSuperAdmin(ctx);
  if (typeof input.company_admins_invite === 'boolean') await setTeamInvitations(ctx, input.company_admins_invite);
  return getPlatformSettings(ctx);
}

/** 5 test mails in 10 minutes a super admin: enough to fix a setup, too few to flood a mailbox. */
const TESTS = 5;
const WINDOW_MS = 10 * 60_000;
export const newSmtpTestWindow = (): SlidingWindow => new SlidingWindow(TESTS, WINDOW_MS);

declare module '../context.ts' {
  interface ProcessState {
    /** Test mails sent by each super admin lately (this file) */
    smtpTests: SlidingWindow;
  }
}

export async function sendSmtpTest(ctx: Ctx): Promise<{ ok: true; to: string; message: string }> {
  const actor = requireSuperAdmin(ctx);
  const s = ctx.services;
  if (!s.config.smtpUrl) {
    throw new DomainError(
      'conflict',
      'No SMTP server is configured: set SMTP_URL (smtp:// or smtps://) and MAIL_FROM and restart. Until then mail is written to the server log.',
    );
  }
  const tests = s.state.smtpTests;
  const now = s.now();
  const wait = tests.retryAfter(actor.userId, now);
  if (wait > 0)
    throw new DomainError('rate_limited', `At most ${TESTS} test mails in 10 minutes. Try again in ${wait} s.`, { retryAfter: wait });
  tests.hit(actor.userId, now);
  try {
    await sendMail(s, {
      to: actor.email,
      kind: 'smtp_test',
      subject: 'StatusWatch SMTP test',
      text: `This test mail was sent from the Settings screen at ${new Date(now).toISOString()}. Mail from StatusWatch reaches you.`,
    });
  } catch (e) {
    await auditFromCtx(s.db, ctx, 'settings_update', { smtp_test: 'failed' });
    const reason = e instanceof Error ? e.message : String(e);
    throw new DomainError('unavailable', `The SMTP server did not take the test mail: ${reason}`, { cause: e });
  }
  await auditFromCtx(s.db, ctx, 'settings_update', { smtp_test: 'sent' });
  return { ok: true, to: actor.email, message: `The SMTP server accepted a test mail to ${actor.email}.` };
}
