// Single sign-on: one handler per operationId of openapi/paths/sso.yaml. The start and the callback
// answer the browser with 303: to the provider, into the console, or back to the sign-in page with
// a code the page turns into a message (lib/sso-messages.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerMap } from '../handler-types.ts';
import type { Ctx } from '../../domain/context.ts';
import { deleteSsoSettings, getSsoSettings, putSsoSettings } from '../../domain/sso/settings.ts';
import { finishSso, recordSsoFailure, SsoFailure, startSso } from '../../domain/sso/sign-in.ts';
import { setSessionCookies } from '../auth/cookies.ts';
import { publicPortOf } from '../public-origin.ts';

const companyIdOf = (query: unknown): string | undefined => (query as { company_id?: string } | undefined)?.company_id;

/** The browser's state of its sign-in, for the callback only; Lax: the provider's redirect back is a top-level GET. */
const STATE_PATH = '/api/v1/auth/sso';
const stateCookieName = (ctx: Ctx) => (ctx.services.config.publicScheme === 'https' ? '__Secure-sw_sso' : 'sw_sso');
const STATE_SECONDS = 600;

function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).header('cache-control', 'no-store').send();
}

async function refused(ctx: Ctx, reply: FastifyReply, e: unknown, email: string | null): Promise<FastifyReply> {
  if (!(e instanceof SsoFailure)) throw e;
  await recordSsoFailure(ctx, e, email);
  return seeOther(reply, `/login?sso_error=${e.code}`);
}

function callbackUrlOf(ctx: Ctx, req: FastifyRequest): URL {
  const port = publicPortOf(req.headers.host, ctx.services.config);
  return new URL(req.url, `${ctx.services.config.publicScheme}://${ctx.host}${port}`);
}

export const ssoHandlers = {
  getCompanySso: async ({ ctx, query, req, reply }) => {
    reply.header('cache-control', 'no-store');
    return getSsoSettings(ctx, publicPortOf(req.headers.host, ctx.services.config), companyIdOf(query));
  },
  putCompanySso: async ({ ctx, query, body, req }) =>
    putSsoSettings(ctx, body, publicPortOf(req.headers.host, ctx.services.config), companyIdOf(query)),
  deleteCompanySso: async ({ ctx, query, reply }) => {
    await deleteSsoSettings(ctx, companyIdOf(query));
    return reply.code(204).send();
  },
  startSso: async ({ ctx, query, req, reply }) => {
    const q = (query ?? {}) as { email?: string; return_to?: string; remember?: string };
    try {
      const r = await startSso(
        ctx,
        { email: q.email, return_to: q.return_to, remember: q.remember === 'true' },
        publicPortOf(req.headers.host, ctx.services.config),
      );
      if (r.kind === 'provider')
        reply.setCookie(stateCookieName(ctx), r.stateCookie, {
          httpOnly: true,
          secure: true,
          sameSite: 'lax',
          path: STATE_PATH,
          maxAge: STATE_SECONDS,
        });
      return seeOther(reply, r.location);
    } catch (e) {
      return refused(ctx, reply, e, q.email?.trim().toLowerCase() || null);
    }
  },
  ssoCallback: async ({ ctx, req, reply }) => {
    const cookie = req.cookies?.[stateCookieName(ctx)] ?? null;
    // The state is good for one try, whatever its outcome.
    reply.clearCookie(stateCookieName(ctx), { httpOnly: true, secure: true, sameSite: 'lax', path: STATE_PATH });
    try {
      const r = await finishSso(ctx, callbackUrlOf(ctx, req), cookie);
      setSessionCookies(reply, ctx.services.config, r.session);
      return seeOther(reply, r.returnTo);
    } catch (e) {
      return refused(ctx, reply, e, null);
    }
  },
} satisfies HandlerMap;
