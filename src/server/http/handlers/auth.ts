import type { HandlerMap } from '../handler-types.ts';
import {
  FORGOT_PASSWORD_ANSWER,
  changePassword,
  forgotPassword,
  handoffHome,
  getMe,
  login,
  logout,
  refresh,
  resetPassword,
} from '../../domain/auth/account.ts';
import { SIGNUP_ANSWER, checkSubdomain, requestSignup, verifySignup } from '../../domain/auth/signup.ts';
import { unlockSignIn } from '../../domain/auth/unlock.ts';
import { clearSessionCookies, readRefreshCookie, setSessionCookies } from '../auth/cookies.ts';
import { publicPortOf } from '../public-origin.ts';
import { acceptInvitation, lookupInvitation } from '../../domain/users/invitations.ts';

export const authHandlers = {
  login: async ({ ctx, body, req, reply }) => {
    const r = await login(ctx, body, publicPortOf(req.headers.host, ctx.services.config));
    setSessionCookies(reply, ctx.services.config, r.session);
    return r.body;
  },
  signup: async ({ ctx, body, req, reply }) => {
    await requestSignup(ctx, body, publicPortOf(req.headers.host, ctx.services.config));
    reply.code(202);
    return { ok: true, message: SIGNUP_ANSWER };
  },
  checkSubdomain: async ({ ctx, query, req, reply }) => {
    reply.header('cache-control', 'no-store');
    return checkSubdomain(ctx, query, publicPortOf(req.headers.host, ctx.services.config));
  },
  verifySignup: async ({ ctx, body, req, reply }) => {
    const r = await verifySignup(ctx, body, publicPortOf(req.headers.host, ctx.services.config));
    reply.code(201);
    return r;
  },
  unlockSignIn: async ({ ctx, body }) => {
    await unlockSignIn(ctx, body);
    return { ok: true, message: 'Sign-in is unlocked for you. You can sign in now.' };
  },
  getMe: async ({ ctx, reply }) => {
    reply.header('cache-control', 'no-store');
    return getMe(ctx);
  },
  logout: async ({ ctx, req, reply }) => {
    await logout(ctx, readRefreshCookie(req, ctx.services.config));
    clearSessionCookies(reply, ctx.services.config);
    return { ok: true, message: 'Signed out.' };
  },
  // A refused renewal sets no cookie. Clearing them would reach whatever the browser holds when
  // the answer lands: a stale tab's late renewal would end the session another tab of the same
  // browser had just begun. The refused tokens are dead on the server either way.
  refreshToken: async ({ ctx, req, reply }) => {
    const r = await refresh(ctx, readRefreshCookie(req, ctx.services.config));
    setSessionCookies(reply, ctx.services.config, r.session);
    return r.body;
  },
  forgotPassword: async ({ ctx, body, req, reply }) => {
    await forgotPassword(ctx, body, publicPortOf(req.headers.host, ctx.services.config));
    reply.code(202);
    return { ok: true, message: FORGOT_PASSWORD_ANSWER };
  },
  resetPassword: async ({ ctx, body }) => {
    await resetPassword(ctx, body);
    return { ok: true, message: 'Your password has been reset. Please sign in with the new password.' };
  },
  changePassword: async ({ ctx, body, reply }) => {
    setSessionCookies(reply, ctx.services.config, await changePassword(ctx, body));
    return { ok: true, message: 'Your password has been changed. Other sessions were signed out.' };
  },
  lookupInvitation: async ({ ctx, body, reply }) => {
    reply.header('cache-control', 'no-store');
    return lookupInvitation(ctx, body);
  },
  acceptInvitation: async ({ ctx, body, reply }) => {
    const r = await acceptInvitation(ctx, body);
    reply.code(201);
    return { ok: true, message: `Your password is set. Sign in with ${r.email} and your new password.` };
  },
  createHandoff: async ({ ctx, req, reply }) => {
    reply.header('cache-control', 'no-store');
    return handoffHome(ctx, publicPortOf(req.headers.host, ctx.services.config));
  },
} satisfies HandlerMap;
