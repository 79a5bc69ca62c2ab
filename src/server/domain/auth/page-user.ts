// The signed-in user of a page request: same verification as the API (host-bound session).
import type { PageUser } from '../../../lib/page-services.ts';
import { hostName } from '../../../lib/hosts.ts';
import type { Services } from '../context.ts';
import { verifySession } from './sessions.ts';
import { accessTokenFromHeader } from './cookie-names.ts';

export async function currentPageUser(services: Services, cookieHeader: string | null, hostHeader: string): Promise<PageUser | null> {
  const token = accessTokenFromHeader(cookieHeader, services.config);
  if (!token) return null;
  const s = await verifySession(services, token, hostName(hostHeader));
  if (!s) return null;
  const a = s.actor;
  return {
    id: a.userId,
    email: a.email,
    fullName: a.fullName,
    userType: a.userType,
    role: a.role,
    companyId: a.companyId,
    subdomain: s.companySubdomain,
  };
}
