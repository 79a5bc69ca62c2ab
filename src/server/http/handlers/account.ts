// The signed-in user's own credentials: API tokens, two-factor sign-in and active sessions.
import type { HandlerMap } from '../handler-types.ts';
import { createApiToken, listApiTokens, revokeApiToken } from '../../domain/auth/api-tokens.ts';
import { listActiveSessions, signOutOtherSessions } from '../../domain/auth/active-sessions.ts';
import { getUiSettings, updateUiSettings } from '../../domain/auth/ui-settings.ts';
import { confirmTwoFactor, disableTwoFactor, startTwoFactor, twoFactorStatus } from '../../domain/auth/two-factor.ts';

export const accountHandlers = {
  getUiSettings: async ({ ctx }) => getUiSettings(ctx),
  updateUiSettings: async ({ ctx, body }) => updateUiSettings(ctx, body),
  listApiTokens: async ({ ctx, reply }) => {
    reply.header('cache-control', 'no-store');
    return listApiTokens(ctx);
  },
  createApiToken: async ({ ctx, body, reply }) => {
    reply.code(201).header('cache-control', 'no-store');
    return createApiToken(ctx, body);
  },
  revokeApiToken: async ({ ctx, params }) => {
    await revokeApiToken(ctx, params.id);
    return { ok: true, message: 'The token is revoked.' };
  },
  getTwoFactor: async ({ ctx, reply }) => {
    reply.header('cache-control', 'no-store');
    return twoFactorStatus(ctx);
  },
  startTwoFactor: async ({ ctx, reply }) => {
    reply.header('cache-control', 'no-store');
    return startTwoFactor(ctx);
  },
  confirmTwoFactor: async ({ ctx, body, reply }) => {
    reply.header('cache-control', 'no-store');
    return confirmTwoFactor(ctx, body);
  },
  disableTwoFactor: async ({ ctx, body }) => {
    await disableTwoFactor(ctx, body);
    return { ok: true, message: 'Two-factor sign-in is off.' };
  },
  listSessions: async ({ ctx, reply }) => {
    reply.header('cache-control', 'no-store');
    return listActiveSessions(ctx);
  },
  signOutOtherSessions: async ({ ctx }) => {
    await signOutOtherSessions(ctx);
    return { ok: true, message: 'Your other sessions are signed out.' };
  },
} satisfies HandlerMap;
