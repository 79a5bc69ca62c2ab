// The operator's metrics of this process, in one prom-client registry: what the engine, the
// ingest, the HTTP server and the database record as they work, and the process figures.
// Served in Prometheus text format by GET /metrics on the main host (http/metrics-routes.ts).
// Names follow Prometheus conventions: statuswatch_ prefix, base units, _total on counters.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { browserQueueStats } from '../engine/checkers/browser/queue.ts';

export const platformRegistry = new Registry();
// Process figures under their standard names (process_*, nodejs_*), which dashboards expect.
collectDefaultMetrics({ register: platformRegistry });
// prom-client also reports these gauges under a counter's _total suffix (which promtool rejects);
// the same figures stay as nodejs_active_handles, nodejs_active_requests, nodejs_active_resources.
for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
  platformRegistry.removeSingleMetric(name);

/**
 * The `location` label of the operator's figures: the slug of the built-in engine (`local`) or a
 * public location, and `SUBDOMAIN/slug` for a company's private one (two companies may each have
 * a `lab`). One value per location, so the series stay as few as the locations.
 */
export function locationLabel(slug: string, companySubdomain: string | null): string {
  return companySubdomain === null ? slug : `${companySubdomain}/${slug}`;
}

/** Checks whose results were handed to the writer, by monitor kind, outcome and location. */
export const checksTotal = new Counter({
  name: 'statuswatch_checks_total',
  help: 'Checks completed by the engine of this process (location "local") or taken from probes, by monitor kind, resulting status and location.',
  labelNames: ['kind', 'status', 'location'] as const,
  registers: [platformRegistry],
});

export const schedulingLag = new Histogram({
  name: 'statuswatch_scheduling_lag_seconds',
  help: 'How late each check started after its due time.',
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [platformRegistry],
});

export const missedSlotsTotal = new Counter({
  name: 'statuswatch_missed_slots_total',
  help: 'Interval slots skipped because a check started more than one interval late.',
  registers: [platformRegistry],
});

export const resultsPending = new Gauge({
  name: 'statuswatch_results_pending',
  help: 'Check results waiting in the batch writer to be committed.',
  registers: [platformRegistry],
});

/** Set at each scrape from alert_deliveries (domain/metrics/operator.ts). */
export const outboxDeliveries = new Gauge({
  name: 'statuswatch_outbox_deliveries',
  help: 'Alert deliveries in the outbox, by state (pending: waiting or retrying; failed: given up).',
  labelNames: ['state'] as const,
  registers: [platformRegistry],
});

/** Set at each scrape from the monitors' destination hosts (domain/metrics/operator.ts). */
export const destinationBudgetHosts = new Gauge({
  name: 'statuswatch_destination_budget_hosts',
  help: 'Destination hosts near (80 % or more) or over MAX_CHECKS_PER_HOST_PER_MINUTE, summed over every company; GET /api/v1/admin/destination-budget lists them.',
  labelNames: ['state'] as const,
  registers: [platformRegistry],
});

/** Set at each scrape from the probes' rows (domain/metrics/operator.ts). */
export const probesByState = new Gauge({
  name: 'statuswatch_probes',
  help: 'Probes of each probe location, by state (online: called within the last 90 s; offline: the others).',
  labelNames: ['location', 'state'] as const,
  registers: [platformRegistry],
});

/** Set at each scrape from probe_locations (domain/metrics/operator.ts, jobs/probe-health.ts). */
export const probeLocationUnhealthy = new Gauge({
  name: 'statuswatch_probe_location_unhealthy',
  help: 'Whether a probe location is offline (every probe silent past PROBE_OFFLINE_SECONDS) or flagged (its checks all fail while other locations succeed): 1, else 0.',
  labelNames: ['location', 'reason'] as const,
  registers: [platformRegistry],
});

export const ingestSpansTotal = new Counter({
  name: 'statuswatch_ingest_spans_total',
  help: 'OTLP spans received, by outcome (accepted: stored; rejected: invalid span in an accepted body; refused: body refused, to be retried).',
  labelNames: ['outcome'] as const,
  registers: [platformRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'statuswatch_http_request_duration_seconds',
  help: 'HTTP request durations by method, route pattern and status code.',
  labelNames: ['method', 'route', 'code'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [platformRegistry],
});

export const dbQueryDuration = new Histogram({
  name: 'statuswatch_db_query_duration_seconds',
  help: 'Database statement durations, by database kind and outcome.',
  labelNames: ['db', 'outcome'] as const,
  buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  registers: [platformRegistry],
});

/** Status page snapshots built (a change of what a company's public page shows). */
export const statusSnapshotsTotal = new Counter({
  name: 'statuswatch_status_page_snapshots_total',
  help: 'Public status page snapshots built: each is one change of what a page shows.',
  registers: [platformRegistry],
});

/** Status page changes made from the last full render (lib/status-page-splice.ts), counted among the renders too. */
export const statusSplicesTotal = new Counter({
  name: 'statuswatch_status_page_splices_total',
  help: 'Status page renders made by putting the new banner and monitor rows into the last full render (the rest of the page unchanged).',
  registers: [platformRegistry],
});

/** Astro renders of public pages into the cache: one per snapshot and page when single flight holds. */
export const statusRendersTotal = new Counter({
  name: 'statuswatch_status_page_renders_total',
  help: 'Public status pages rendered into the cache, by page (status: the page itself; extra: history, uptime, incident).',
  labelNames: ['page'] as const,
  registers: [platformRegistry],
});

/** Browser checks waiting for a slot (BROWSER_CONCURRENCY) at the scrape (engine/checkers/browser/queue.ts). */
export const browserQueueDepth = new Gauge({
  name: 'statuswatch_browser_queue_depth',
  help: 'Browser checks (engine and Test now) waiting for a browser slot in this process.',
  registers: [platformRegistry],
  collect() {
    this.set(browserQueueStats().waiting);
  },
});

export const browserRunsActive = new Gauge({
  name: 'statuswatch_browser_runs_active',
  help: 'Browser checks running in this process now (at most BROWSER_CONCURRENCY).',
  registers: [platformRegistry],
  collect() {
    this.set(browserQueueStats().running);
  },
});

/** Each browser run's wait for a slot, drained from the queue's record at every scrape. */
export const browserQueueWait = new Histogram({
  name: 'statuswatch_browser_queue_wait_seconds',
  help: 'How long each browser check waited for a browser slot before it ran.',
  buckets: [0.01, 0.1, 0.5, 1, 5, 10, 30, 60, 120],
  registers: [platformRegistry],
  collect() {
    const waits = browserQueueStats().waits;
    for (const w of waits.splice(0, waits.length)) this.observe(w);
  },
});
