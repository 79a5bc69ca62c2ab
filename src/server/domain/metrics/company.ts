// A company's Prometheus scrape (GET /metrics on its host, with one of its API tokens as the
// bearer): each monitor's status, last response time, uptime over 24 hours and 30 days and
// certificate expiry, labelled by monitor id, name and kind; for a monitor checked from several
// locations, each location's state, last response time and last check, labelled by `location`
// (the location's slug: as many series as the monitor has locations). Built per request in a registry of
// its own, so one company's series never meet another's; prom-client escapes label values.
import { Gauge, Registry } from 'prom-client';
import { classifyHost } from '../../../lib/hosts.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { locationMetricsRepo } from '../../db/repositories/location-metrics-repo.ts';
import { monitorsRepo } from '../../db/repositories/monitors-repo.ts';
import { verifyApiToken } from '../auth/api-tokens.ts';
import { requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { listSummaries } from '../monitors/list-summary.ts';
import type { MetricsText } from './operator.ts';

/** A monitor is in exactly one of these; paused wins over its last status. */
const STATES = ['operational', 'degraded', 'down', 'unknown', 'paused'] as const;
const LABELS = ['monitor_id', 'monitor_name', 'kind'] as const;
/** A location's own state of a monitor: the state machine's, before the quorum (no `paused`: that is the monitor's). */
const LOCATION_STATES = ['operational', 'degraded', 'down', 'unknown'] as const;

function gauges(registry: Registry) {
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Gauge({ name, help, labelNames, registers: [registry] });
  return {
    status: gauge('statuswatch_monitor_status', 'Whether the monitor is in this state (1) or not (0).', [...LABELS, 'state']),
    responseTime: gauge('statuswatch_monitor_response_time_seconds', 'Response time of the last timed check.', LABELS),
    lastCheck: gauge('statuswatch_monitor_last_check_timestamp_seconds', 'When the monitor was last checked.', LABELS),
    uptime: gauge('statuswatch_monitor_uptime_ratio', 'Share of checks up over the window (24h or 30d), 0 to 1.', [...LABELS, 'window']),
    certExpiry: gauge(
      'statuswatch_monitor_cert_expiry_timestamp_seconds',
      'When the certificate last seen by the monitor expires.',
      LABELS,
    ),
    locationStatus: gauge(
      'statuswatch_monitor_location_status',
      "Whether the location's own state of the monitor is this one (1) or not (0), before the quorum.",
      [...LABELS, 'location', 'state'],
    ),
    locationResponseTime: gauge(
      'statuswatch_monitor_location_response_time_seconds',
      "Response time of the location's last timed check of the monitor.",
      [...LABELS, 'location'],
    ),
    locationLastCheck: gauge('statuswatch_monitor_location_last_check_timestamp_seconds', 'When the location last checked the monitor.', [
      ...LABELS,
      'location',
    ]),
  };
}

export async function companyMetrics(ctx: Ctx, bearer: string | null): Promise<MetricsText> {
  if (bearer === null) throw new DomainError('unauthorized', 'An API token of this company is required (Authorization: Bearer swt_…).');
  const { services } = ctx;
  const { actor } = await verifyApiToken(services, bearer, ctx.host);
  const scoped: Ctx = { ...ctx, actor };
  requirePermission(scoped, 'view', 'monitors', 'read monitor metrics');
  const host = classifyHost(ctx.host, services.config.productDomain);
  if (host.kind !== 'tenant') throw new DomainError('not_found', 'No route GET /metrics');
  // A super admin's token reads the company of the host; a company user's token only works on its own.
  const companyId = actor.companyId ?? (await companiesRepo(services.db).findBySubdomain(host.subdomain))?.id;
  if (!companyId) throw new DomainError('not_found', 'Company not found');

  const monitors = await monitorsRepo(services.db).listForMetrics(companyId);
  const summary = await listSummaries(
    scoped,
    monitors.map((m) => m.id),
  );
  const registry = new Registry();
  const g = gauges(registry);
  for (const m of monitors) {
    const labels = { monitor_id: m.id, monitor_name: m.name, kind: m.type };
    const state = m.is_paused ? 'paused' : m.status;
    for (const s of STATES) g.status.set({ ...labels, state: s }, s === state ? 1 : 0);
    if (m.last_response_time_ms != null) g.responseTime.set(labels, m.last_response_time_ms / 1000);
    if (m.last_checked_at != null) g.lastCheck.set(labels, m.last_checked_at / 1000);
    const s = summary(m.id);
    if (s.uptime_24h != null) g.uptime.set({ ...labels, window: '24h' }, s.uptime_24h / 100);
    if (s.uptime_30d != null) g.uptime.set({ ...labels, window: '30d' }, s.uptime_30d / 100);
    if (m.cert_expires_at != null) g.certExpiry.set(labels, m.cert_expires_at / 1000);
  }
  const byId = new Map(monitors.map((m) => [m.id, m]));
  for (const st of await locationMetricsRepo(services.db).statesOfCompany(companyId)) {
    const m = byId.get(st.monitor_id);
    if (!m) continue;
    const labels = { monitor_id: m.id, monitor_name: m.name, kind: m.type, location: st.location };
    for (const s of LOCATION_STATES) g.locationStatus.set({ ...labels, state: s }, s === st.status ? 1 : 0);
    if (st.last_response_time_ms != null) g.locationResponseTime.set(labels, st.last_response_time_ms / 1000);
    if (st.last_checked_at != null) g.locationLastCheck.set(labels, st.last_checked_at / 1000);
  }
  return { contentType: registry.contentType, body: await registry.metrics() };
}
