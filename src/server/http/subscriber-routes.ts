// The POST side of a status-page subscriber's links (the pages that GET them are Astro's:
// src/pages/subscribe/confirm/[token].astro and src/pages/unsubscribe/[token].astro, which only
// read, because mail scanners open links before people do).
// - POST /subscribe/confirm/{token}: the page's button; confirms, then 303 to the outcome page.
// - POST /unsubscribe/{token}: the page's button (303 back to the page, which then says it is
//   done) or a mail provider's RFC 8058 one-click request, whose body is exactly
//   `List-Unsubscribe=One-Click` (answered 200 with a line of text; providers follow no redirect).
// The token is the only credential: no cookie is read, so these routes take form bodies
// (urlencoded or multipart, bounded), which the API refuses, and the one-click route is exempt
// from the same-origin guard (same-origin.ts): a cross-site request cannot do more than the
// token's holder already may.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../domain/context.ts';
import { confirmLink, unsubscribeLink } from '../domain/subscribers/links.ts';
import { hostOf } from './request-context.ts';

const FORM_BODY_LIMIT = 1024;
const ONE_CLICK = 'List-Unsubscribe=One-Click';

type TokenRequest = FastifyRequest<{ Params: { token: string } }>;

const isOneClick = (body: unknown) =>
  typeof body === 'string' && (body.trim() === ONE_CLICK || /name="List-Unsubscribe"\r?\n\r?\nOne-Click/.test(body));

export function registerSubscriberRoutes(app: FastifyInstance, services: Services): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );

    scope.post('/subscribe/confirm/:token', async (req: TokenRequest, reply: FastifyReply) => {
      const { token } = req.params;
      const outcome = await confirmLink(services, hostOf(req), token);
      const to = outcome.kind === 'confirmed' ? '/subscribe/confirmed' : `/subscribe/confirm/${encodeURIComponent(token)}`;
      return reply.code(303).header('location', to).header('cache-control', 'no-store').send();
    });

    scope.post('/unsubscribe/:token', async (req: TokenRequest, reply: FastifyReply) => {
      const { token } = req.params;
      const outcome = await unsubscribeLink(services, hostOf(req), token);
      reply.header('cache-control', 'no-store');
      if (isOneClick(req.body)) {
        return reply
          .code(outcome.kind === 'invalid' ? 404 : 200)
          .type('text/plain; charset=utf-8')
          .send(outcome.kind === 'invalid' ? 'This unsubscribe link is not valid.\n' : 'Unsubscribed.\n');
      }
      return reply
        .code(303)
        .header('location', `/unsubscribe/${encodeURIComponent(token)}`)
        .send();
    });
  });
}
