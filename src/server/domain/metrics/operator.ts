// The operator's Prometheus scrape of the platform (GET /metrics on the main host): the process
// registry (metrics/platform.ts) plus figures read from the database at scrape time. Exists only
// when the operator set METRICS_TOKEN; answered only to that bearer token.
import { createHash, timingSafeEqual } from 'node:crypto';
import { alertDeliveriesRepo } from '../../db/repositories/alert-deliveries-repo.ts';
import { destinationBudgetRepo } from '../../db/repositories/destination-budget-repo.ts';
import { PROBE_ONLINE_MS } from '../../../lib/probe-locations.ts';
import { locationMetricsRepo } from '../../db/repositories/location-metrics-repo.ts';
import {
  destinationBudgetHosts,
  locationLabel,
  outboxDeliveries,
  platformRegistry,
  probeLocationUnhealthy,
  probesByState,
} from '../../metrics/platform.ts';
import { NEAR_SHARE } from '../monitors/destination-budget.ts';
import type { Services } from '../context.ts';
import { DomainError } from '../errors.ts';

export interface MetricsText {
  contentType: string;
  body: string;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Compared as digests: equal lengths, constant time, nothing learnt from the timing. */
function sameToken(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

export async function operatorMetrics(services: Services, bearer: string | null): Promise<MetricsText> {
  const expected = services.config.metricsToken;
  if (!expected) throw new DomainError('not_found', 'No route GET /metrics');
  if (bearer === null || !sameToken(bearer, expected)) throw new DomainError('unauthorized', 'A valid metrics token is required.');
  const outbox = await alertDeliveriesRepo(services.db).outboxDepth();
  outboxDeliveries.set({ state: 'pending' }, outbox.pending);
  outboxDeliveries.set({ state: 'failed' }, outbox.failed);
  const cap = services.config.maxChecksPerHostPerMinute;
  const busy = cap ? await destinationBudgetRepo(services.db).busiest(cap * NEAR_SHARE, 10_000) : [];
  const over = busy.filter((h) => h.per_minute > cap + 1e-9).length;
  destinationBudgetHosts.set({ state: 'over' }, over);
  destinationBudgetHosts.set({ state: 'near' }, busy.length - over);
  await setProbeFigures(services);
  return { contentType: platformRegistry.contentType, body: await platformRegistry.metrics() };
}

/** Each location's probes and health, as of now: a deleted location's series go with it. */
async function setProbeFigures(services: Services): Promise<void> {
  const rows = await locationMetricsRepo(services.db).probesByLocation(services.now() - PROBE_ONLINE_MS);
  probesByState.reset();
  probeLocationUnhealthy.reset();
  for (const r of rows) {
    const location = locationLabel(r.slug, r.company_subdomain);
    probesByState.set({ location, state: 'online' }, r.probes_online);
    probesByState.set({ location, state: 'offline' }, r.probes_total - r.probes_online);
    probeLocationUnhealthy.set({ location, reason: 'offline' }, r.offline ? 1 : 0);
    probeLocationUnhealthy.set({ location, reason: 'flagged' }, r.flagged ? 1 : 0);
  }
}
