// The Fastify application: API (spec-first), probes, security hooks, static assets and Astro.
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import type { Services } from '../domain/context.ts';
import type { PageServices } from '../../lib/page-services.ts';
import { handlers } from './handlers/index.ts';
import { loadSpec } from './openapi/spec.ts';
import { registerSpecRoutes } from './openapi/routes.ts';
import { AJV_OPTIONS, lazyValidators } from './openapi/lazy-validators.ts';
import { errorToProblem, problem, sendProblem } from './problem.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import { registerClosingRefusal } from './closing.ts';
import { registerJsonCompression } from './compress-json.ts';
import { registerSameOriginGuard } from './same-origin.ts';
import { registerHostGuard } from './host-guard.ts';
import { registerCustomDomainHost } from './custom-domain-host.ts';
import { registerPageAccessGuard } from './page-access-guard.ts';
import { astroBuilt, registerAstro } from './astro.ts';
import { registerPublicRoutes } from './public-routes.ts';
import { registerEmbedRoutes } from './embed-routes.ts';
import { registerIdentityRoutes } from './auth/handoff-route.ts';
import { registerSubscriberRoutes } from './subscriber-routes.ts';
import { registerMetricsRoutes } from './metrics-routes.ts';
import { clientErrorHandler, frameworkErrorHandler } from './framework-errors.ts';
import { registerJsonBodyParser } from './json-body.ts';
import { serverTimeouts, type TimeoutOptions } from './timeouts.ts';
import { closeLiveStreams } from '../domain/live/service.ts';
import { endProbeLongPolls } from '../domain/probes/assignments.ts';
import { logRequest } from './log-redaction.ts';
import { registerScimErrors } from './scim-errors.ts';

// one compiler pool for every app of the process (an API test builds one per database)
const VALIDATORS = lazyValidators();

export interface AppOptions {
  services: Services;
  pages?: PageServices;
  /** Mount the built Astro pages (needs `npm run build`); API tests leave it off. */
  withPages?: boolean;
  logger?: boolean;
  /** Where error logs go instead (tests read what the server logged) */
  errorLog?: { write(line: string): void };
  /** What goes to errorLog: errors unless told (tests of the request log ask for info) */
  errorLogLevel?: 'error' | 'info';
  /** Server time limits (tests shorten them); see timeouts.ts for the defaults */
  timeouts?: Partial<TimeoutOptions>;
  /** Serve only the probes' own calls and the health checks (the probe ingest port: probe-ingest.ts) */
  probeCallsOnly?: boolean;
}

/** The paths the probe ingest port answers; everything else is the main port's. */
const PROBE_PORT_PATH = /^\/(api\/v1\/probe\/|livez$|readyz$)/;

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { services } = opts;
  const config = services.config;
  const https = config.publicScheme === 'https';
  const app = Fastify({
    ...serverTimeouts(opts.timeouts),
    frameworkErrors: frameworkErrorHandler(https),
    clientErrorHandler: clientErrorHandler(https),
    logger: opts.errorLog
      ? { level: opts.errorLogLevel ?? 'error', stream: opts.errorLog, serializers: { req: logRequest } }
      : opts.logger === false || config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, serializers: { req: logRequest } },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // refused by registerClosingRefusal instead, with a problem document and the security headers
    return503OnClosing: false,
    ajv: AJV_OPTIONS as never,
    schemaController: { compilersFactory: { buildValidator: VALIDATORS as never } },
  });

  // Every route as registered, so the contract harness can prove nothing undocumented is served.
  const servedRoutes: Array<{ method: string; url: string }> = [];
  app.decorate('servedRoutes', servedRoutes);
  app.addHook('onRoute', (r) => {
    for (const m of [r.method].flat()) servedRoutes.push({ method: String(m), url: r.url });
  });

  registerClosingRefusal(app);
  if (opts.probeCallsOnly)
    app.addHook('onRequest', async (req, reply) => {
      const path = req.url.split('?')[0];
      if (!PROBE_PORT_PATH.test(path))
        return sendProblem(
          reply,
          problem(
            404,
            'not_found',
            `This port takes the probes' calls only (/api/v1/probe/...): ${req.method} ${path} is on the main port`,
          ),
        );
    });
  // Then: a custom domain is re-addressed to its company's host before cookies are parsed.
  registerCustomDomainHost(app, services, config);
  await app.register(fastifyCookie);
  registerSecurityHeaders(app, { https });
  // before compression: SCIM errors are rewritten while the body is still text
  registerScimErrors(app);
  registerJsonCompression(app);
  registerSameOriginGuard(app, config);
  // JSON only: without a text/plain parser such a body answers 415 like a form or multipart one.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  registerHostGuard(app, config.productDomain);
  registerPageAccessGuard(app, services);

  // Open event streams would hold close() until its time-out: end them first.
  app.addHook('preClose', () => closeLiveStreams(services));
  // Probes' long polls likewise (domain/probes/assignments.ts).
  app.addHook('preClose', () => endProbeLongPolls(services));

  app.setErrorHandler((err, req, reply) => sendProblem(reply, errorToProblem(err as Error, req)));

  registerMetricsRoutes(app, services);
  app.get('/livez', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const dbUp = services.ready && (await services.db.ping());
    if (!dbUp) return sendProblem(reply, problem(503, 'unavailable', 'Not ready: migrations pending or database unreachable.'));
    return { status: 'ready' };
  });

  const spec = await loadSpec();
  registerSpecRoutes(app, spec, handlers, services);
  registerPublicRoutes(app, services, opts.withPages ? opts.pages : undefined);
  registerEmbedRoutes(app, services);
  registerIdentityRoutes(app, services);
  registerSubscriberRoutes(app, services);

  if (opts.withPages && opts.pages) {
    if (!astroBuilt(config.distDir)) throw new Error(`The pages are not built in ${config.distDir}: run \`npm run build\` first.`);
    await registerAstro(app, opts.pages, config.publicScheme === 'https', config.distDir);
  } else {
    app.setNotFoundHandler((req, reply) =>
      sendProblem(reply, problem(404, 'not_found', `No route ${req.method} ${req.url.split('?')[0]}`)),
    );
  }
  return app;
}
