// The API and the first-run page answer only on hosts of this platform: the main host or a
// company's subdomain of PRODUCT_DOMAIN. Any other Host (a foreign domain pointed at this
// server, a bare IP address, a malformed label) is refused before any handler runs, so sessions,
// links and tenant lookups never work off a host the platform does not own. The health call
// still answers on an IP address: load balancers and orchestrators probe by address
// (/livez and /readyz are outside /api and answer on any host).
import type { FastifyInstance } from 'fastify';
import { classifyHost, hostName, isIpHost } from '../../lib/hosts.ts';
import { problem, sendProblem } from './problem.ts';

const GUARDED = /^\/(api|setup)(\/|\?|$)/;
const PROBE = /^\/api\/v1\/health\/?(\?|$)/;

export function registerHostGuard(app: FastifyInstance, productDomain: string): void {
  // A callback hook: the requests it lets through (all but a few) pass without a promise.
  app.addHook('onRequest', (req, reply, done) => {
    if (!GUARDED.test(req.url)) return done();
    const host = req.headers.host ?? '';
    if (classifyHost(host, productDomain).kind !== 'invalid') return done();
    if (PROBE.test(req.url) && isIpHost(hostName(host))) return done();
    sendProblem(
      reply,
      problem(400, 'invalid_host', `Invalid subdomain: this server answers on ${productDomain} and its companies' subdomains only.`),
    );
  });
}
