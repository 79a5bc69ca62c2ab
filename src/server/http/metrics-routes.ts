// GET /metrics in Prometheus text format, and the request durations it reports. The path is also
// the console's Metrics screen (an HTML page), so the request decides: one that carries an
// `Authorization: Bearer` header, or that accepts Prometheus/OpenMetrics text and not HTML (a
// Prometheus scrape), is a scrape; anything else (a browser) gets the console page.
// - main host: the operator's platform metrics, only with METRICS_TOKEN (unset: 404);
// - a company host: that company's monitors, with one of its API tokens (read scope is enough).
// A scrape without a valid credential is a 401 problem that names nothing about the metrics.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../domain/context.ts';
import { classifyHost } from '../../lib/hosts.ts';
import { companyMetrics } from '../domain/metrics/company.ts';
import { operatorMetrics } from '../domain/metrics/operator.ts';
import { httpRequestDuration } from '../metrics/platform.ts';
import { bearerToken } from './auth/resolve-actor.ts';
import { hostOf } from './request-context.ts';

/** A scrape rather than a page view (see above); exported for its unit test. */
export function isScrape(headers: { authorization?: string; accept?: string }): boolean {
  if (typeof headers.authorization === 'string' && /^Bearer\b/i.test(headers.authorization)) return true;
  const accept = (headers.accept ?? '').toLowerCase();
  return !accept.includes('text/html') && (accept.includes('application/openmetrics-text') || accept.includes('text/plain'));
}

/** Requests served by no route (Astro pages, 404s) share one label: the raw URL never becomes one. */
const UNMATCHED = '(unmatched)';

export function registerMetricsRoutes(app: FastifyInstance, services: Services): void {
  // A callback hook: no promise per answer.
  app.addHook('onResponse', (req, reply, done) => {
    httpRequestDuration.observe(
      { method: req.method, route: req.routeOptions.url ?? UNMATCHED, code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  app.get('/metrics', async (req: FastifyRequest, reply) => {
    if (!isScrape(req.headers)) return reply.callNotFound();
    const host = hostOf(req);
    const where = classifyHost(host, services.config.productDomain);
    if (where.kind === 'invalid') return reply.callNotFound();
    const bearer = bearerToken(req);
    const ctx = { services, actor: null, host, ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '').slice(0, 512) };
    const out = where.kind === 'root' ? await operatorMetrics(services, bearer) : await companyMetrics(ctx, bearer);
    return reply.code(200).header('content-type', out.contentType).header('cache-control', 'no-store').send(out.body);
  });
}
