// Passkeys: the Account screen's list, enrolment, renaming and removal, and the password-less sign-in.
import type { HandlerMap } from '../handler-types.ts';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  finishPasskeyEnrolment,
  listPasskeys,
  passkeySignInOptions,
  removePasskey,
  renamePasskey,
  signInWithPasskey,
  startPasskeyEnrolment,
} from '../../domain/auth/passkeys.ts';
import { setSessionCookies } from '../auth/cookies.ts';
import { publicPortOf } from '../public-origin.ts';

export const passkeysHandlers = {
  listPasskeys: async ({ ctx, reply }) => {
    reply.header('cache-control', 'no-store');
    return listPasskeys(ctx);
  },
  startPasskeyRegistration: async ({ ctx, body, reply }) => {
    reply.header('cache-control', 'no-store');
    return startPasskeyEnrolment(ctx, body);
  },
  registerPasskey: async ({ ctx, body, req, reply }) => {
    const r = await finishPasskeyEnrolment(
      ctx,
      { ...body, response: body.response as unknown as RegistrationResponseJSON },
      publicPortOf(req.headers.host, ctx.services.config),
    );
    reply.code(201).header('cache-control', 'no-store');
    return r;
  },
  renamePasskey: async ({ ctx, params, body }) => renamePasskey(ctx, params.id, body),
  removePasskey: async ({ ctx, params, body }) => {
    await removePasskey(ctx, params.id, body ?? {});
    return { ok: true, message: 'The passkey is removed.' };
  },
  requestPasskeyOptions: async ({ ctx, reply }) => {
    reply.header('cache-control', 'no-store');
    return passkeySignInOptions(ctx);
  },
  signInWithPasskey: async ({ ctx, body, req, reply }) => {
    const r = await signInWithPasskey(ctx, body, publicPortOf(req.headers.host, ctx.services.config));
    setSessionCookies(reply, ctx.services.config, r.session);
    return r.body;
  },
} satisfies HandlerMap;
