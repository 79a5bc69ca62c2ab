// /dashboard: the super admin's global dashboard or the company dashboard (spec section 2).
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { errorRateTone, p95Tone, uptimeTone, type Tone } from '../../../../lib/thresholds.ts';
import { $router } from '../../router.ts';
import { $authState, $role, $user } from '../../stores/auth.ts';
import { $selectedTenant, $tenantOptions } from '../../stores/tenant.ts';
import { onLive } from '../../stores/live.ts';
import { Card, LoadView } from '../../ui/Card.tsx';
import { fmtNumber, fmtRate, fmtTime } from '../../ui/format.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { StatusPageLink } from '../../ui/StatusPageLink.tsx';
import { FirstStepsCard } from './FirstSteps.tsx';
import {
  $errorTraces,
  $incidents,
  $monitorSummary,
  $ownRed,
  $topTenants,
  loadCustomerDashboard,
  loadSuperAdminDashboard,
  refreshMonitorSummary,
  refreshRecentIncidents,
  type MonitorSummary,
} from './store.ts';
import { Table } from '../../ui/Table.tsx';

export function DashboardPage() {
  const auth = useStore($authState);
  const user = useStore($user);
  const role = useStore($role);
  if (auth === 'loading') return <Spinner />;
  if (!user || !role) {
    return (
      <div className="sw-panel sw-center-text">
        <h2>Authentication Required</h2>
        <p>Please sign in to view your dashboard</p>
        <a className="sw-btn sw-btn-primary" href="/login">
          Sign In
        </a>
      </div>
    );
  }
  if (role === 'super_admin') return <SuperAdminHome />;
  if (role === 'customer_admin' || role === 'customer_viewer') return <CustomerDashboard readOnly={role === 'customer_viewer'} />;
  return (
    <div className="sw-panel sw-center-text">
      <h2>Unknown Role</h2>
      <p>Role: {String(role)}</p>
      <p>Please contact support for assistance</p>
    </div>
  );
}

function Tile(props: { label: string; value: string; tone?: Tone; testId?: string }) {
  return (
    <div className={`sw-tile${props.tone ? ' sw-tone-' + props.tone : ''}`} data-testid={props.testId} data-tone={props.tone}>
      <span className="sw-tile-value">{props.value}</span>
      <span className="sw-tile-label">{props.label}</span>
    </div>
  );
}

function SummaryTiles({ s }: { s: MonitorSummary }) {
  return (
    <div className="sw-tiles">
      <Tile label="Up" value={String(s.up)} tone="green" testId="tile-up" />
      {/* red only when something is down: a red zero reads as an alarm */}
      <Tile label="Down" value={String(s.down)} tone={s.down > 0 ? 'red' : 'grey'} testId="tile-down" />
      <Tile label="Paused" value={String(s.paused)} tone="grey" testId="tile-paused" />
      <Tile label="Total" value={String(s.total)} testId="tile-total" />
    </div>
  );
}

/** The tenant chosen in the header's selector gets its company dashboard; none, the global one. */
function SuperAdminHome() {
  const selected = useStore($selectedTenant);
  const options = useStore($tenantOptions);
  if (!selected) return <SuperAdminDashboard />;
  const name = options.list.find((c) => c.id === selected)?.name;
  return <CustomerDashboard readOnly={false} tenant={selected} title={name ? `${name} Dashboard` : 'Tenant Dashboard'} />;
}

function SuperAdminDashboard() {
  const top = useStore($topTenants);
  const incidents = useStore($incidents);
  const summary = useStore($monitorSummary);
  useEffect(() => loadSuperAdminDashboard(), []);
  useEffect(
    () =>
      onLive((m) => {
        if ((m.type === 'monitor' && m.reload) || m.type === 'resync') void refreshMonitorSummary(null);
        if (m.type === 'incident' || m.type === 'resync') void refreshRecentIncidents();
      }),
    [],
  );
  return (
    <div className="sw-dashboard">
      <div className="sw-page-head">
        <h2 className="sw-page-title">Super Admin Dashboard</h2>
        <p className="sw-muted">Global overview of all tenants, metrics, and system health</p>
      </div>
      <div className="sw-grid">
        <Card
          title="Top Tenants by Error Rate"
          action={<a href="/metrics">View All</a>}
          footer="Showing top 5 tenants by error rate"
          testId="card-top-tenants"
        >
          <LoadView load={top} isEmpty={(d) => d.length === 0} empty="No metrics data available for the last 24 hours">
            {(rows) => (
              // Three columns (requests under the name) fit a third of a 1280 px screen without scrolling.
              <Table
                stack={false}
                compact
                wrapTestId="top-tenants-table"
                rows={rows}
                rowKey={(r) => r.tenantId}
                columns={[
                  {
                    label: 'Tenant',
                    className: 'sw-wrap-anywhere',
                    cell: (r) => (
                      <>
                        {r.tenantName || r.tenantId}
                        <div className="sw-muted sw-small">{fmtNumber(r.totalRequests)} requests</div>
                      </>
                    ),
                  },
                  {
                    label: 'Error rate',
                    cell: (r) => <span className={`sw-pill sw-${errorRateTone(r.errorRate)}`}>{r.errorRate.toFixed(2)}%</span>,
                  },
                  { label: 'P95', cell: (r) => <span className={`sw-pill sw-${p95Tone(r.p95)}`}>{fmtNumber(r.p95)} ms</span> },
                ]}
              />
            )}
          </LoadView>
        </Card>
        <Card
          title="Recent Incidents"
          action={<a href="/monitors/incidents">View All</a>}
          footer="Last 10 incidents across all tenants"
          testId="card-incidents"
        >
          <LoadView load={incidents} isEmpty={(d) => d.length === 0} empty="No incidents reported in the last 24 hours">
            {(rows) => (
              <ul className="sw-list">
                {rows.map((i) => (
                  <li key={i.id} className="sw-list-row">
                    <div>
                      <a href={`/monitors/incidents/${i.id}`}>
                        <strong>{i.title}</strong>
                      </a>
                      <div className="sw-muted">
                        <span className={`sw-sev sw-sev-${['critical', 'high', 'medium'].includes(i.severity) ? i.severity : 'other'}`}>
                          {i.severity}
                        </span>
                        {' · '}
                        {i.tenantName || i.tenantId}
                        {' · '}
                        {fmtTime(i.timestamp, 'Unknown time')}
                      </div>
                    </div>
                    <IncidentBadge status={i.status} />
                  </li>
                ))}
              </ul>
            )}
          </LoadView>
        </Card>
        <Card
          title="Monitors Status (Global)"
          action={<a href="/monitors">Manage</a>}
          footer={summary.status === 'ready' ? `Monitoring ${summary.data.total} endpoints across all tenants` : undefined}
          testId="card-monitors"
        >
          <LoadView load={summary} isEmpty={(d) => d.total === 0} empty="No monitor data available">
            {(s) => (
              <>
                <SummaryTiles s={s} />
                {s.criticalAlerts > 0 && (
                  <div className="sw-banner sw-banner-error" data-testid="critical-banner">
                    <strong>{s.criticalAlerts} Critical Alert(s)</strong>
                    <span>Immediate attention required</span>
                  </div>
                )}
              </>
            )}
          </LoadView>
        </Card>
      </div>
    </div>
  );
}

function IncidentBadge({ status }: { status: string }) {
  const shown = status === 'open' || status === 'investigating' ? status : 'resolved';
  return <span className={`sw-badge sw-badge-${shown}`}>{shown}</span>;
}

function CustomerDashboard(props: { readOnly: boolean; tenant?: string; title?: string }) {
  const { readOnly } = props;
  const user = useStore($user);
  const role = useStore($role);
  const page = useStore($router);
  // the super admin's chosen tenant, else a tenant id in the URL (?tenant=); the server honours
  // either only for super admins, so a company user always sees their own company
  const tenant = props.tenant || page?.search?.tenant || user?.company_id || null;
  const companies = useStore($tenantOptions);
  const subdomain = props.tenant ? companies.list.find((c) => c.id === props.tenant)?.subdomain : user?.company?.subdomain;
  const red = useStore($ownRed);
  const summary = useStore($monitorSummary);
  const traces = useStore($errorTraces);
  useEffect(() => loadCustomerDashboard(tenant), [tenant]);
  useEffect(
    () =>
      onLive((m) => {
        if ((m.type === 'monitor' && m.reload) || m.type === 'resync') void refreshMonitorSummary(tenant);
      }),
    [tenant],
  );
  return (
    <div className="sw-dashboard">
      <div className="sw-page-head">
        <h2 className="sw-page-title">{props.title ?? 'My Dashboard'}</h2>
        <p className="sw-muted">
          {props.tenant
            ? "Overview of this company's services, monitors, and performance metrics"
            : 'Overview of your services, monitors, and performance metrics'}
        </p>
        {subdomain && (
          <p className="sw-dashboard-status-page" data-testid="status-page-address">
            Status page: <StatusPageLink subdomain={subdomain} />
          </p>
        )}
        {readOnly && <span className="sw-badge sw-badge-readonly">Read-only</span>}
      </div>
      {role === 'customer_admin' && user && <FirstStepsCard userId={user.id} />}
      <div className="sw-grid">
        <Card
          title={props.tenant ? 'RED (24h)' : 'My RED (24h)'}
          action={<a href="/metrics">View Details</a>}
          footer="Last 24 hours performance metrics"
          testId="card-red"
        >
          <LoadView
            load={red}
            isEmpty={(d) => d.totalRequests === 0 && d.uptime == null}
            empty="No metrics data available for the last 24 hours"
          >
            {(r) => {
              // No request seen: an error rate or latency of 0 would be a claim, not a measurement.
              const traffic = r.totalRequests > 0;
              return (
                <div className="sw-tiles sw-tiles-3">
                  <Tile
                    label="Error Rate %"
                    value={traffic ? r.errorRate.toFixed(2) : '—'}
                    tone={traffic ? errorRateTone(r.errorRate) : undefined}
                    testId="tile-error-rate"
                  />
                  <Tile label="Requests/sec" value={fmtRate(r.rps)} testId="tile-rps" />
                  <Tile
                    label="P95 Latency ms"
                    value={traffic ? fmtNumber(r.p95) : '—'}
                    tone={traffic ? p95Tone(r.p95) : undefined}
                    testId="tile-p95"
                  />
                  <Tile
                    label="Uptime %"
                    value={r.uptime == null ? '—' : r.uptime.toFixed(2)}
                    tone={uptimeTone(r.uptime)}
                    testId="tile-uptime"
                  />
                  <Tile label="Total Requests" value={fmtNumber(r.totalRequests)} testId="tile-total-requests" />
                  <Tile label="Avg Response" value={traffic ? `${fmtNumber(r.avgResponseTime)} ms` : '—'} testId="tile-avg" />
                </div>
              );
            }}
          </LoadView>
        </Card>
        <Card
          title="Monitors Status"
          action={<a href="/monitors">{readOnly ? 'View' : 'Manage'}</a>}
          footer={summary.status === 'ready' ? `Last check: ${fmtTime(summary.data.lastCheck, 'Unknown')}` : undefined}
          testId="card-monitors"
        >
          <LoadView load={summary} isEmpty={(d) => d.total === 0} empty="No monitors configured yet">
            {(s) => (
              <>
                <SummaryTiles s={s} />
                {s.down > 0 && (
                  <div className="sw-banner sw-banner-error" data-testid="down-banner">
                    <strong>{s.down} Monitor(s) Down</strong>
                    <span>Check your services</span>
                  </div>
                )}
              </>
            )}
          </LoadView>
        </Card>
        <Card
          title="Recent Error Traces"
          action={<a href="/traces">View All</a>}
          footer="Last 10 error traces from your services"
          testId="card-traces"
        >
          <LoadView load={traces} isEmpty={(d) => d.length === 0} empty="No errors in the last 24 hours">
            {(rows) => (
              <ul className="sw-list">
                {rows.map((t) => (
                  <li key={t.id} className="sw-list-row">
                    <a href={`/traces/${encodeURIComponent(t.traceId || t.id)}`} className="sw-trace">
                      <strong>
                        {t.service} · {t.operation}
                      </strong>
                      <span className="sw-muted">
                        <span className={t.status === 'error' ? 'sw-pill sw-red' : 'sw-pill sw-grey'}>{t.status}</span>{' '}
                        {fmtNumber(t.duration)} ms · {fmtTime(t.timestamp, 'Unknown time')}
                      </span>
                      {t.errorMessage && <span className="sw-trace-error">{t.errorMessage}</span>}
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </LoadView>
        </Card>
      </div>
    </div>
  );
}
