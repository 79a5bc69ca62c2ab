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
import { t } from '../../i18n.ts';

export function DashboardPage() {
  const auth = useStore($authState);
  const user = useStore($user);
  const role = useStore($role);
  if (auth === 'loading') return <Spinner />;
  if (!user || !role) {
    return (
      <div className="sw-panel sw-center-text">
        <h2>{t('dashboard.dashboardPage.authenticationRequired')}</h2>
        <p>{t('dashboard.dashboardPage.pleaseSignInToView')}</p>
        <a className="sw-btn sw-btn-primary" href="/login">
          {t('dashboard.dashboardPage.signIn')}
        </a>
      </div>
    );
  }
  if (role === 'super_admin') return <SuperAdminHome />;
  if (role === 'customer_admin' || role === 'customer_viewer') return <CustomerDashboard readOnly={role === 'customer_viewer'} />;
  return (
    <div className="sw-panel sw-center-text">
      <h2>{t('dashboard.dashboardPage.unknownRole')}</h2>
      <p>{t('dashboard.dashboardPage.role', { string: String(role) })}</p>
      <p>{t('dashboard.dashboardPage.pleaseContactSupportForAssistance')}</p>
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
      <Tile label={t('dashboard.dashboardPage.up')} value={String(s.up)} tone="green" testId="tile-up" />
      {/* red only when something is down: a red zero reads as an alarm */}
      <Tile label={t('dashboard.dashboardPage.down')} value={String(s.down)} tone={s.down > 0 ? 'red' : 'grey'} testId="tile-down" />
      <Tile label={t('dashboard.dashboardPage.paused')} value={String(s.paused)} tone="grey" testId="tile-paused" />
      <Tile label={t('dashboard.dashboardPage.total')} value={String(s.total)} testId="tile-total" />
    </div>
  );
}

/** The tenant chosen in the header's selector gets its company dashboard; none, the global one. */
function SuperAdminHome() {
  const selected = useStore($selectedTenant);
  const options = useStore($tenantOptions);
  if (!selected) return <SuperAdminDashboard />;
  const name = options.list.find((c) => c.id === selected)?.name;
  return (
    <CustomerDashboard
      readOnly={false}
      tenant={selected}
      title={name ? t('dashboard.dashboardPage.dashboard', { name: name }) : t('dashboard.dashboardPage.tenantDashboard')}
    />
  );
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
        <h2 className="sw-page-title">{t('dashboard.dashboardPage.superAdminDashboard')}</h2>
        <p className="sw-muted">{t('dashboard.dashboardPage.globalOverviewOfAllTenants')}</p>
      </div>
      <div className="sw-grid">
        <Card
          title={t('dashboard.dashboardPage.topTenantsByErrorRate')}
          action={<a href="/metrics">{t('dashboard.dashboardPage.viewAll')}</a>}
          footer={t('dashboard.dashboardPage.footerTopTenants')}
          testId="card-top-tenants"
        >
          <LoadView load={top} isEmpty={(d) => d.length === 0} empty={t('dashboard.dashboardPage.noMetricsDataAvailableFor')}>
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
                    label: t('dashboard.dashboardPage.tenant'),
                    className: 'sw-wrap-anywhere',
                    cell: (r) => (
                      <>
                        {r.tenantName || r.tenantId}
                        <div className="sw-muted sw-small">
                          {t('dashboard.dashboardPage.requests', { number: fmtNumber(r.totalRequests) })}
                        </div>
                      </>
                    ),
                  },
                  {
                    label: t('dashboard.dashboardPage.errorRate'),
                    cell: (r) => <span className={`sw-pill sw-${errorRateTone(r.errorRate)}`}>{r.errorRate.toFixed(2)}%</span>,
                  },
                  {
                    label: t('dashboard.dashboardPage.p95'),
                    cell: (r) => (
                      <span className={`sw-pill sw-${p95Tone(r.p95)}`}>
                        {t('dashboard.dashboardPage.ms', { number: fmtNumber(r.p95) })}
                      </span>
                    ),
                  },
                ]}
              />
            )}
          </LoadView>
        </Card>
        <Card
          title={t('dashboard.dashboardPage.recentIncidents')}
          action={<a href="/monitors/incidents">{t('dashboard.dashboardPage.viewAll')}</a>}
          footer={t('dashboard.dashboardPage.footerRecentIncidents')}
          testId="card-incidents"
        >
          <LoadView load={incidents} isEmpty={(d) => d.length === 0} empty={t('dashboard.dashboardPage.noIncidentsReportedInThe')}>
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
                        {fmtTime(i.timestamp, t('dashboard.dashboardPage.unknownTime'))}
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
          title={t('dashboard.dashboardPage.monitorsStatusGlobal')}
          action={<a href="/monitors">{t('dashboard.dashboardPage.manage')}</a>}
          footer={
            summary.status === 'ready'
              ? t('dashboard.dashboardPage.monitoringEndpointsAcrossAllTenants', { total: summary.data.total })
              : undefined
          }
          testId="card-monitors"
        >
          <LoadView load={summary} isEmpty={(d) => d.total === 0} empty={t('dashboard.dashboardPage.noMonitorDataAvailable')}>
            {(s) => (
              <>
                <SummaryTiles s={s} />
                {s.criticalAlerts > 0 && (
                  <div className="sw-banner sw-banner-error" data-testid="critical-banner">
                    <strong>{t('dashboard.dashboardPage.criticalAlertS', { criticalAlerts: s.criticalAlerts })}</strong>
                    <span>{t('dashboard.dashboardPage.immediateAttentionRequired')}</span>
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
        <h2 className="sw-page-title">{props.title ?? t('dashboard.dashboardPage.myDashboard')}</h2>
        <p className="sw-muted">
          {props.tenant ? t('dashboard.dashboardPage.overviewOfThisCompanyS') : t('dashboard.dashboardPage.overviewOfYourServicesMonitors')}
        </p>
        {subdomain && (
          <p className="sw-dashboard-status-page" data-testid="status-page-address">
            {t('dashboard.dashboardPage.statusPage')} <StatusPageLink subdomain={subdomain} />
          </p>
        )}
        {readOnly && <span className="sw-badge sw-badge-readonly">{t('dashboard.dashboardPage.readOnly')}</span>}
      </div>
      {role === 'customer_admin' && user && <FirstStepsCard userId={user.id} />}
      <div className="sw-grid">
        <Card
          title={props.tenant ? t('dashboard.dashboardPage.rED24h') : t('dashboard.dashboardPage.myRED24h')}
          action={<a href="/metrics">{t('dashboard.dashboardPage.viewDetails')}</a>}
          footer={t('dashboard.dashboardPage.footerPerformance')}
          testId="card-red"
        >
          <LoadView
            load={red}
            isEmpty={(d) => d.totalRequests === 0 && d.uptime == null}
            empty={t('dashboard.dashboardPage.noMetricsDataAvailableFor')}
          >
            {(r) => {
              // No request seen: an error rate or latency of 0 would be a claim, not a measurement.
              const traffic = r.totalRequests > 0;
              return (
                <div className="sw-tiles sw-tiles-3">
                  <Tile
                    label={t('dashboard.dashboardPage.errorRate2')}
                    value={traffic ? r.errorRate.toFixed(2) : '—'}
                    tone={traffic ? errorRateTone(r.errorRate) : undefined}
                    testId="tile-error-rate"
                  />
                  <Tile label={t('dashboard.dashboardPage.requestsSec')} value={fmtRate(r.rps)} testId="tile-rps" />
                  <Tile
                    label={t('dashboard.dashboardPage.p95LatencyMs')}
                    value={traffic ? fmtNumber(r.p95) : '—'}
                    tone={traffic ? p95Tone(r.p95) : undefined}
                    testId="tile-p95"
                  />
                  <Tile
                    label={t('dashboard.dashboardPage.uptime')}
                    value={r.uptime == null ? '—' : r.uptime.toFixed(2)}
                    tone={uptimeTone(r.uptime)}
                    testId="tile-uptime"
                  />
                  <Tile
                    label={t('dashboard.dashboardPage.totalRequests')}
                    value={fmtNumber(r.totalRequests)}
                    testId="tile-total-requests"
                  />
                  <Tile
                    label={t('dashboard.dashboardPage.avgResponse')}
                    value={traffic ? t('dashboard.dashboardPage.ms', { number: fmtNumber(r.avgResponseTime) }) : '—'}
                    testId="tile-avg"
                  />
                </div>
              );
            }}
          </LoadView>
        </Card>
        <Card
          title={t('dashboard.dashboardPage.monitorsStatus')}
          action={<a href="/monitors">{readOnly ? t('dashboard.dashboardPage.view') : t('dashboard.dashboardPage.manage')}</a>}
          footer={
            summary.status === 'ready'
              ? t('dashboard.dashboardPage.lastCheck', { time: fmtTime(summary.data.lastCheck, 'Unknown') })
              : undefined
          }
          testId="card-monitors"
        >
          <LoadView load={summary} isEmpty={(d) => d.total === 0} empty={t('dashboard.dashboardPage.noMonitorsConfiguredYet')}>
            {(s) => (
              <>
                <SummaryTiles s={s} />
                {s.down > 0 && (
                  <div className="sw-banner sw-banner-error" data-testid="down-banner">
                    <strong>{t('dashboard.dashboardPage.monitorSDown', { down: s.down })}</strong>
                    <span>{t('dashboard.dashboardPage.checkYourServices')}</span>
                  </div>
                )}
              </>
            )}
          </LoadView>
        </Card>
        <Card
          title={t('dashboard.dashboardPage.recentErrorTraces')}
          action={<a href="/traces">{t('dashboard.dashboardPage.viewAll')}</a>}
          footer={t('dashboard.dashboardPage.footerErrorTraces')}
          testId="card-traces"
        >
          <LoadView load={traces} isEmpty={(d) => d.length === 0} empty={t('dashboard.dashboardPage.noErrorsInTheLast')}>
            {(rows) => (
              <ul className="sw-list">
                {rows.map((trace) => (
                  <li key={trace.id} className="sw-list-row">
                    <a href={`/traces/${encodeURIComponent(trace.traceId || trace.id)}`} className="sw-trace">
                      <strong>
                        {trace.service} · {trace.operation}
                      </strong>
                      <span className="sw-muted">
                        <span className={trace.status === 'error' ? 'sw-pill sw-red' : 'sw-pill sw-grey'}>{trace.status}</span>{' '}
                        {t('dashboard.dashboardPage.ms2', {
                          number: fmtNumber(trace.duration),
                          time: fmtTime(trace.timestamp, 'Unknown time'),
                        })}
                      </span>
                      {trace.errorMessage && <span className="sw-trace-error">{trace.errorMessage}</span>}
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
