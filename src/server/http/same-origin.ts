// Cross-site state-changing requests are refused: browsers send Origin and Sec-Fetch-Site, so a
// form or fetch from another site cannot act with the user's cookies. Clients that are not
// browsers (OTLP exporters, curl) send neither and are judged by their credentials alone.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { problem, sendProblem } from './problem.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isCrossSite(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = req.headers.origin;
  if (origin && origin !== 'null') {
    try {
      return new URL(origin).host.toLowerCase() !== String(req.headers.host ?? '').toLowerCase();
    } catch {
      return true;
    }
  }
  return origin === 'null';
}

export function registerSameOriginGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    if (SAFE.has(req.method)) return;
    if (req.url.startsWith('/v1/traces')) return; // server-to-server ingest, keyed by API key
    if (isCrossSite(req)) {
      return sendProblem(reply, problem(403, 'forbidden', 'Cross-site requests are not allowed.'));
    }
  });
}
