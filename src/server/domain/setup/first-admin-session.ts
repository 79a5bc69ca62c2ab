// /setup signs the new super admin in, as sign-in does: a session on this host and its two
// cookies (same names and attributes as src/server/http/auth/cookies.ts sets on sign-in).
import type { PageCookie } from '../../../lib/page-services.ts';
import { hostName } from '../../../lib/hosts.ts';
import type { Services } from '../context.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { issueSession } from '../auth/sessions.ts';
import { REFRESH_PATH, cookieNames } from '../auth/cookie-names.ts';
import { recordAudit } from '../audit/record.ts';
import { withTransaction } from '../../db/scope.ts';
import { createSuperAdmin } from './first-admin.ts';

export async function firstAdminSessionCookies(
  services: Services,
  input: { email: string; password: string; fullName: string },
  request: { host: string; userAgent: string },
): Promise<PageCookie[]> {
  const { id } = await createSuperAdmin(services, input, { onlyIfNoUsers: true });
  const user = (await usersRepo(services.db).findById(id))!;
  const host = hostName(request.host);
  // The session and its audit row commit together.
  const session = await withTransaction(services.db, async (tx) => {
    const issued = await issueSession(services, user, host, { remember: false, userAgent: request.userAgent }, tx);
    await recordAudit(tx, services, {
      event: 'user_login',
      source: 'server',
      userId: user.id,
      userRole: issued.claims.role,
      tenantId: null,
      sessionId: issued.familyId,
      details: { host, remember: false, via: 'setup' },
    });
    return issued;
  });
  const names = cookieNames(services.config);
  const base = { httpOnly: true, secure: true, sameSite: 'lax' } as const;
  return [
    { name: names.access, value: session.accessToken, options: { ...base, path: '/', maxAge: session.accessMaxAge } },
    // no "remember me" on /setup: the refresh cookie lasts the browser session
    { name: names.refresh, value: session.refreshToken, options: { ...base, path: REFRESH_PATH } },
  ];
}
