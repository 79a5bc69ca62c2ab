// Session cookies: HttpOnly, Secure, SameSite=Lax, host-only (never a Domain attribute).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { IssuedSession } from '../../domain/auth/sessions.ts';
import { REFRESH_PATH, cookieNames } from '../../domain/auth/cookie-names.ts';

const BASE = { httpOnly: true, secure: true, sameSite: 'lax' as const };

export function setSessionCookies(reply: FastifyReply, config: Config, s: IssuedSession): void {
  const n = cookieNames(config);
  reply.setCookie(n.access, s.accessToken, { ...BASE, path: '/', maxAge: s.accessMaxAge });
  reply.setCookie(n.refresh, s.refreshToken, {
    ...BASE,
    path: REFRESH_PATH,
    ...(s.refreshMaxAge !== null ? { maxAge: s.refreshMaxAge } : {}),
  });
  reply.header('cache-control', 'no-store');
}

export function clearSessionCookies(reply: FastifyReply, config: Config): void {
  const n = cookieNames(config);
  reply.clearCookie(n.access, { ...BASE, path: '/' });
  reply.clearCookie(n.refresh, { ...BASE, path: REFRESH_PATH });
}

export function readAccessCookie(req: FastifyRequest, config: Config): string | null {
  return req.cookies?.[cookieNames(config).access] ?? null;
}

export function readRefreshCookie(req: FastifyRequest, config: Config): string | null {
  return req.cookies?.[cookieNames(config).refresh] ?? null;
}
