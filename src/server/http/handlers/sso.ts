// Single sign-on: one handler per operationId of openapi/paths/sso.yaml. The start and the callback
// answer the browser with 303: to the provider, into the console, or back to the sign-in page with
// a code the page turns into a message (lib/sso-messages.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerMap } from '../handler-types.ts';
import type { Ctx } from '../../domain/context.ts';
import { deleteSsoSettings, getSamlSpMetadata, getSsoSettings, putSsoSettings } from '../../domain/sso/settings.ts';
import { finishSamlSso, finishSso, recordSsoFailure, SsoFailure, startSso } from '../../domain/sso/sign-in.ts';
import { setSessionCookies } from '../auth/cookies.ts';
import { publicPortOf } from '../public-origin.ts';
import { readForm } from '../form-body.ts';
import { sendProblem } from '../problem.ts';

const companyIdOf = (query: unknown): string | undefined => (query as { company_id?: string } | undefined)?.company_id;

/** The browser's state of its sign-in, for the callback only; Lax: the provider's redirect back is a top-level GET. */
const STATE_PATH = '/api/v1/auth/sso';
const stateCookieName = (ctx: Ctx) => (ctx.services.config.publicScheme === 'https' ? '__Secure-sw_sso' : 'sw_sso');
const STATE_SECONDS = 600;

function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).header('cache-control', 'no-store').send();
}

async function refused(
  ctx: Ctx,
  reply: FastifyReply,
  e: unknown,
  email: string | null,
  answer: (reply: FastifyReply, location: string) => FastifyReply = seeOther,
): Promise<FastifyReply> {
  if (!(e instanceof SsoFailure)) throw e;
  await recordSsoFailure(ctx, e, email);
  return answer(reply, `/login?sso_error=${e.code}`);
}

interface StartInput {
  email?: string;
  return_to?: string;
  remember?: string;
}

const START_FORM_LIMIT = 4096;
const ACS_FORM_LIMIT = 512 * 1024;

/**
 * A page that sends the browser on (for the form post). A 303 would do, but the console's
 * Content-Security-Policy (form-action 'self') also holds for the redirects after a form is
 * submitted, and the next stop (the company's host, the provider) is another origin: a refresh
 * is a new navigation, not part of the form's submission.
 */
function continuePage(reply: FastifyReply, location: string): FastifyReply {
  const href = location.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return reply
    .code(200)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>Single sign-on</title></head>` +
        `<body><p><a href="${href}">Continue to single sign-on</a></p></body></html>`,
    );
}

/** Starts a sign-in on this host: to the provider (with the browser's state cookie), or on to the company's host. */
async function startHere(
  ctx: Ctx,
  req: FastifyRequest,
  reply: FastifyReply,
  q: StartInput,
  answer: (reply: FastifyReply, location: string) => FastifyReply = seeOther,
): Promise<FastifyReply> {
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
    return answer(reply, r.location);
  } catch (e) {
    return refused(ctx, reply, e, q.email?.trim().toLowerCase() || null, answer);
  }
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
  startSso: async ({ ctx, query, req, reply }) => startHere(ctx, req, reply, (query ?? {}) as StartInput),
  startSsoByEmail: async ({ ctx, req, reply }) => {
    const form = await readForm(req, START_FORM_LIMIT);
    if (!(form instanceof URLSearchParams)) return sendProblem(reply, form);
    const q: StartInput = {
      email: form.get('email')?.slice(0, 254) || undefined,
      return_to: form.get('return_to') ?? undefined,
      remember: form.get('remember') ?? undefined,
    };
    return startHere(ctx, req, reply, q, continuePage);
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
  samlAssertionConsumer: async ({ ctx, req, reply }) => {
    const form = await readForm(req, ACS_FORM_LIMIT);
    if (!(form instanceof URLSearchParams)) return sendProblem(reply, form);
    try {
      const r = await finishSamlSso(ctx, callbackUrlOf(ctx, req), form);
      setSessionCookies(reply, ctx.services.config, r.session);
      return seeOther(reply, r.returnTo);
    } catch (e) {
      return refused(ctx, reply, e, null);
    }
  },
  getCompanySsoSamlMetadata: async ({ ctx, query, req, reply }) => {
    const m = await getSamlSpMetadata(ctx, publicPortOf(req.headers.host, ctx.services.config), companyIdOf(query));
    return reply
      .code(200)
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${m.filename.replace(/[^A-Za-z0-9._-]/g, '')}"`)
      .type('application/samlmetadata+xml')
      .send(m.xml);
  },
} satisfies HandlerMap;
