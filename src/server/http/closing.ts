// Requests arriving on open connections while the server shuts down are refused with 503. Fastify
// would refuse them itself (return503OnClosing) with bare JSON written straight to the socket,
// before any hook: refused here instead, as a problem document that goes through the onSend
// hooks like every other answer (security headers included).
import type { FastifyInstance } from 'fastify';
import { problem, sendProblem } from './problem.ts';

/** Register before every other hook: a closing server does no work for a refused request. */
export function registerClosingRefusal(app: FastifyInstance): void {
  let closing = false;
  // Fastify stops routing new work as it starts closing, then runs preClose: this one first.
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A callback hook, not an async one: it runs before every request and mostly does nothing.
  app.addHook('onRequest', (_req, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    sendProblem(reply, problem(503, 'unavailable', 'The server is shutting down. Please try again in a moment.', { retry_after: 1 }));
  });
}
