// Names of the session cookies. Over https the access cookie is `__Host-` prefixed; the refresh
// cookie, scoped to /api/v1/auth so it is not sent with every request, is `__Secure-` prefixed
// (a `__Host-` cookie must have Path=/).
import type { Config } from '../../config.ts';

/** The refresh cookie's Path. */
export const REFRESH_PATH = '/api/v1/auth';

export function cookieNames(config: Config): { access: string; refresh: string } {
  return config.publicScheme === 'https' ? { access: '__Host-sw_at', refresh: '__Secure-sw_rt' } : { access: 'sw_at', refresh: 'sw_rt' };
}

/** The access token out of a raw Cookie header (pages get the header, not a parsed request). */
export function accessTokenFromHeader(cookieHeader: string | null, config: Config): string | null {
  if (!cookieHeader) return null;
  const name = cookieNames(config).access;
  for (const part of cookieHeader.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}
