// /monitors/{id}: one monitor's status and since when, uptime over 24 h to 90 days, the response
// time chart (loaded on demand with its library), the hourly blocks and daily bars of the status
// page, recent checks paged, its incidents and maintenance windows, the certificate of an https
// target (issuer and expiry), and pause, resume, edit, archive and restore for those who may
// change monitors (viewers only read).
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { STATUS_LABEL } from '../../../../lib/status.ts';
import { locationLabel } from '../../../../lib/monitor-locations.ts';
import { quorumNeed } from '../../../../lib/quorum.ts';
import { dailyBars, hourlyTimeline, type RollupCounts } from '../../../../lib/timeline.ts';
import type { ScreenProps } from '../../ui/screen-props.ts';
import { type ConsoleKey, t } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { onLive } from '../../stores/live.ts';
import { Card, ErrorPanel, LoadView, Skeleton } from '../../ui/Card.tsx';
import { fmtDate, fmtNumber, fmtTime } from '../../ui/format.ts';
import { KIND_LABELS } from './form.ts';
import { LinksCard } from './LinksCard.tsx';
import { MonitorDialog } from './MonitorDialog.tsx';
import {
  $chart,
  $checks,
  $days,
  $hours,
  $incidents,
  $monitor,
  $pageAlert,
  $range,
  $uptime,
  $windows,
  CHECKS_PAGE,
  loadChart,
  loadChecks,
  loadMonitorPage,
  monitorPageLive,
  setMonitorArchived,
  setMonitorPaused,
  type Monitor,
  type ResponseTimeRange,
  type ResponseTimes,
} from './monitor-page-store.ts';
import { STATUS_TEXT, type MonitorRow } from './store.ts';
import { Pager } from '../../ui/Pager.tsx';
import { isSynthetic } from './steps/model.ts';
import { LastRunCard, StepTimingCard } from './steps/SyntheticCards.tsx';
import { Table } from '../../ui/Table.tsx';
import '../../ui/uplot.css';
import './monitors.css';

import type { ChartMode } from './ResponseChart.tsx';
import { targetOf } from './monitor-target.ts';

// the chart and its library load after the page's figures, on this screen only
const ResponseChart = lazy(() => import('./ResponseChart.tsx').then((m) => ({ default: m.ResponseChart })));

// labels are read when drawn, so they are in the language shown then
const RANGES = (): Array<[ResponseTimeRange, string]> => [
  ['checks', t('monitors.page.range.checks')],
  ['24h', t('monitors.page.range.24h')],
  ['7d', t('monitors.page.range.7d')],
  ['30d', t('monitors.page.range.30d')],
  ['90d', t('monitors.page.range.90d')],
];
const CHART_MODES = (): Array<[ChartMode, string]> => [
  ['latency', t('monitors.page.mode.latency')],
  ['phases', t('monitors.page.mode.phases')],
  ['locations', t('monitors.page.mode.locations')],
];
const PHASES = ['dns', 'connect', 'tls', 'ttfb', 'total'] as const;

const pct = (p: number | null | undefined) => (p == null ? '—' : `${fmtNumber(p, 2)}%`);
const ms = (v: number | null | undefined) => (v == null ? '—' : t('monitors.ms', { ms: fmtNumber(v) }));
/** A check's or a location's state (lib/status.ts keeps the public page's English). */
const stateText = (s: keyof typeof STATUS_LABEL) => t(`monitors.state.${s}` as ConsoleKey);

function countsOf(rt: ResponseTimes): RollupCounts[] {
  return rt.points.map((p) => ({ ...p, start: Date.parse(p.start), lastHttpCode: p.last_http_code }));
}

/** The dialog edits list rows; the page's monitor is one without the list's summary. */
function asRow(m: Monitor): MonitorRow {
  return { ...m, uptime_24h: null, uptime_30d: null, sparkline: new Array(24).fill(null), sparkline_unit: 'hour' };
}

export function MonitorPage({ params }: ScreenProps) {
  const id = params.id;
  const role = useStore($role);
  const monitor = useStore($monitor);
  const alert = useStore($pageAlert);
  const [editing, setEditing] = useState(false);
  const mayChange = can(role, 'update', 'monitors');

  useEffect(() => {
    void loadMonitorPage(id);
  }, [id]);
  useEffect(() => onLive(monitorPageLive(id)), [id]);

  if (monitor.status === 'loading') return <Skeleton rows={6} />;
  if (monitor.status === 'error')
    return (
      <div className="sw-admin">
        <Crumbs name={t('monitors.page.crumb')} />
        <ErrorPanel message={monitor.httpStatus === 404 ? t('monitors.page.notFound') : monitor.message} />
      </div>
    );
  const m = monitor.data;
  const archived = m.archived_at !== null;
  const st = archived
    ? { text: t('monitors.status.archived'), tone: 'grey' }
    : m.in_maintenance && m.status !== 'paused'
      ? { text: t('monitors.status.maintenance'), tone: 'grey' }
      : STATUS_TEXT[m.status];

  return (
    <div className="sw-admin">
      <Crumbs name={m.name} />
      <div className="sw-page-head sw-row-between">
        <div>
          <h2 className="sw-page-title">{m.name}</h2>
          <p className="sw-muted sw-mp-sub">
            <span className={`sw-pill sw-${st.tone}`} data-testid="monitor-status">
              {st.text}
            </span>{' '}
            {archived
              ? t('monitors.page.since', { at: fmtTime(m.archived_at, '') })
              : m.status_since
                ? t('monitors.page.since', { at: fmtTime(m.status_since, '') })
                : t('monitors.page.noChange')}{' '}
            · {KIND_LABELS[m.type]}
            {m.tenant_name && role === 'super_admin' ? ` · ${m.tenant_name}` : ''}
          </p>
        </div>
        {mayChange && (
          <div className="sw-mp-actions">
            <button type="button" className="sw-btn" onClick={() => setEditing(true)}>
              {t('monitors.edit')}
            </button>
            {archived ? (
              <button type="button" className="sw-btn sw-btn-primary" onClick={() => void setMonitorArchived(m.id, false)}>
                {t('monitors.restore')}
              </button>
            ) : (
              <>
                <button type="button" className="sw-btn sw-btn-primary" onClick={() => void setMonitorPaused(m.id, !m.is_paused)}>
                  {m.is_paused ? t('monitors.resume') : t('monitors.pause')}
                </button>
                <button type="button" className="sw-btn" onClick={() => void setMonitorArchived(m.id, true)}>
                  {t('monitors.archive')}
                </button>
              </>
            )}
          </div>
        )}
      </div>
      {archived && (
        <p className="sw-banner sw-mp-archived" data-testid="archived-note">
          {t('monitors.page.archivedNote', { at: fmtTime(m.archived_at, '') })}
        </p>
      )}
      {alert && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {alert.text}
        </div>
      )}
      <UptimeCard />
      {isSynthetic(m.type) && <LastRunCard m={m} />}
      <ChartCard id={m.id} synthetic={isSynthetic(m.type)} />
      {isSynthetic(m.type) && <SyntheticTimings m={m} />}
      <div className="sw-grid">
        <TimelineCard />
        <Details m={m} />
      </div>
      <LinksCard m={m} />
      <LocationsCard m={m} />
      <ChecksCard id={m.id} locations={m.location_status} />
      <div className="sw-grid">
        <IncidentsCard />
        <WindowsCard />
      </div>
      {editing && (
        <MonitorDialog
          monitor={asRow(m)}
          onClose={() => setEditing(false)}
          onSaved={(text) => {
            $pageAlert.set({ ok: true, text });
            void loadMonitorPage(m.id);
          }}
        />
      )}
    </div>
  );
}

function Crumbs({ name }: { name: string }) {
  return (
    <nav aria-label={t('monitors.breadcrumb')} className="sw-breadcrumb">
      <a href="/dashboard">{t('monitors.breadcrumbDashboard')}</a> / <a href="/monitors">{t('monitors.title')}</a> /{' '}
      <span aria-current="page">{name}</span>
    </nav>
  );
}

function UptimeCard() {
  const uptime = useStore($uptime);
  return (
    <Card title={t('monitors.page.uptime')} testId="uptime">
      <LoadView load={uptime} isEmpty={() => false} empty="">
        {(u) => (
          <dl className="sw-mp-figures">
            {(['24h', '7d', '30d', '90d'] as const).map((k, i) => (
              <div key={k}>
                <dt>{RANGES()[i + 1][1]}</dt>
                <dd>{pct(u[k].uptime)}</dd>
              </div>
            ))}
            <div>
              <dt>{t('monitors.page.avgResponse24h')}</dt>
              <dd>{ms(u.avg_response_time_24h)}</dd>
            </div>
          </dl>
        )}
      </LoadView>
    </Card>
  );
}

/** `synthetic`: an api_flow or browser monitor, whose checks have steps instead of DNS/connect/TLS phases. */
function ChartCard({ id, synthetic }: { id: string; synthetic: boolean }) {
  const chart = useStore($chart);
  // before the user picks, the range the page opened on
  const range = useStore($range) ?? (chart.status === 'ready' ? chart.data.range : null);
  const [mode, setMode] = useState<ChartMode>('latency');
  const choices = (
    <fieldset className="sw-mp-ranges">
      <legend className="sw-visually-hidden">{t('monitors.page.range')}</legend>
      {RANGES().map(([r, label]) => (
        <button
          key={r}
          type="button"
          className={`sw-btn sw-btn-small${r === range ? ' sw-btn-primary' : ''}`}
          aria-pressed={r === range}
          onClick={() => void loadChart(id, r)}
        >
          {label}
        </button>
      ))}
    </fieldset>
  );
  return (
    <Card title={t('monitors.page.responseTime')} action={choices} testId="response-times">
      <LoadView load={chart} isEmpty={() => false} empty="" rows={5}>
        {(rt) => (
          <>
            <fieldset className="sw-mp-ranges sw-mp-modes">
              <legend className="sw-visually-hidden">{t('monitors.page.show')}</legend>
              {CHART_MODES()
                .filter(([k]) => (k !== 'locations' || rt.locations.length > 0) && (k !== 'phases' || !synthetic))
                .map(([k, text]) => (
                  <button
                    key={k}
                    type="button"
                    className={`sw-btn sw-btn-small${k === mode ? ' sw-btn-primary' : ''}`}
                    aria-pressed={k === mode}
                    onClick={() => setMode(k)}
                  >
                    {text}
                  </button>
                ))}
            </fieldset>
            <Suspense fallback={<Skeleton rows={5} />}>
              <ResponseChart
                data={rt}
                mode={mode}
                label={
                  rt.grain === 'check'
                    ? t('monitors.page.chartChecks', { mode, count: rt.points.length })
                    : t('monitors.page.chartRange', {
                        mode,
                        grain: rt.grain,
                        range: RANGES().find(([r]) => r === rt.range)?.[1] ?? rt.range,
                      })
                }
              />
            </Suspense>
            <h3 className="sw-mp-h3">{synthetic ? t('monitors.page.steps') : t('monitors.page.mode.phases')}</h3>
            {synthetic && rt.phases.steps?.length ? (
              <>
                <dl className="sw-mon-phases">
                  {rt.phases.steps.map((s) => (
                    <div key={s.index}>
                      <dt>{s.name}</dt>
                      <dd>{ms(s.avg)}</dd>
                    </div>
                  ))}
                  <div>
                    <dt>{t('monitors.phase.total')}</dt>
                    <dd>{ms(rt.phases.total)}</dd>
                  </div>
                </dl>
                <p className="sw-muted sw-small">
                  {t('monitors.page.stepMeans', { count: rt.phases.samples, n: fmtNumber(rt.phases.samples) })}
                </p>
              </>
            ) : rt.phases.samples === 0 ? (
              <p className="sw-muted">{t('monitors.page.noPhases')}</p>
            ) : (
              <>
                <dl className="sw-mon-phases">
                  {PHASES.map((k) => (
                    <div key={k}>
                      <dt>{t(`monitors.phase.${k}`)}</dt>
                      <dd>{ms(rt.phases[k])}</dd>
                    </div>
                  ))}
                </dl>
                <p className="sw-muted sw-small">
                  {t('monitors.page.phaseMeans', { count: rt.phases.samples, n: fmtNumber(rt.phases.samples) })}
                </p>
              </>
            )}
          </>
        )}
      </LoadView>
    </Card>
  );
}

function TimelineCard() {
  const hours = useStore($hours);
  const days = useStore($days);
  const now = Date.now();
  return (
    <Card title={t('monitors.page.history')} testId="history">
      <h3 className="sw-mp-h3">{t('monitors.page.last24h')}</h3>
      <LoadView load={hours} isEmpty={() => false} empty="">
        {(rt) => (
          <ol className="sw-mp-blocks" aria-label={t('monitors.page.perHour')}>
            {hourlyTimeline(countsOf(rt), now).map((b) => (
              <li key={b.start} className={`sw-mp-${b.status}`} title={b.tooltip} aria-label={b.tooltip} />
            ))}
          </ol>
        )}
      </LoadView>
      <h3 className="sw-mp-h3">{t('monitors.page.last90d')}</h3>
      <LoadView load={days} isEmpty={() => false} empty="">
        {(rt) => (
          <ol className="sw-mp-bars" aria-label={t('monitors.page.perDay')}>
            {dailyBars(countsOf(rt), now).map((b) => {
              const text = `${new Date(b.day).toISOString().slice(0, 10)} · ${b.uptime === null ? t('monitors.page.noChecksDay') : pct(b.uptime)}`;
              return <li key={b.day} className={`sw-mp-bar-${b.tone}`} title={text} aria-label={text} />;
            })}
          </ol>
        )}
      </LoadView>
    </Card>
  );
}

function Details({ m }: { m: Monitor }) {
  // Any kind that saw a certificate (https, ssl, and the mail and database kinds over TLS) shows it.
  const https = m.type === 'ssl' || (m.type === 'http' && (m.url ?? '').startsWith('https:')) || m.cert_expires_at !== null;
  const target = targetOf(m);
  return (
    <Card title={t('monitors.page.details')} testId="details">
      <dl className="sw-mp-details">
        <dt>{t('monitors.list.col.target')}</dt>
        <dd className="sw-wrap-anywhere">{target || '—'}</dd>
        <dt>{t('monitors.page.interval')}</dt>
        <dd>{t('monitors.page.every', { s: fmtNumber(m.interval_seconds) })}</dd>
        <dt>{t('monitors.list.col.lastChecked')}</dt>
        <dd>{fmtTime(m.last_checked_at, t('monitors.never'))}</dd>
        <dt>{t('monitors.page.lastError')}</dt>
        <dd className="sw-wrap-anywhere">{m.last_error ?? '—'}</dd>
        <dt>{t('monitors.page.public')}</dt>
        <dd>{m.is_public ? t('monitors.page.publicYes') : t('monitors.page.no')}</dd>
        <dt>{t('monitors.page.critical')}</dt>
        <dd>{m.is_critical ? t('monitors.page.criticalYes') : t('monitors.page.criticalNo')}</dd>
        {m.registration && (
          <>
            <dt>{t('monitors.page.registration')}</dt>
            <dd className="sw-wrap-anywhere" data-testid="registration">
              {registrationText(m.registration)}
            </dd>
          </>
        )}
        {https && (
          <>
            <dt>{t('monitors.page.certificate')}</dt>
            <dd className="sw-wrap-anywhere" data-testid="certificate">
              {certificateText(m)}
            </dd>
          </>
        )}
      </dl>
    </Card>
  );
}

const LOCATION_TONE = { operational: 'green', degraded: 'amber', down: 'red', unknown: 'grey' } as const;

/** Each location the monitor is checked from, with its own state and last check (issue 27). */
function LocationsCard({ m }: { m: Monitor }) {
  const rows = m.location_status;
  const online = rows.filter((l) => l.online).length;
  // as the result writer counts it: the online locations vote, the quorum capped at them
  const quorum = quorumNeed(m.quorum, online);
  const rule =
    rows.length > 1
      ? t(m.quorum == null ? 'monitors.page.quorumMajority' : 'monitors.page.quorum', { quorum, count: rows.length })
      : t('monitors.page.oneLocation');
  return (
    <Card title={t('monitors.locations.legend')} testId="locations" action={<span className="sw-muted sw-small">{rule}</span>}>
      <Table
        compact
        rows={rows}
        rowKey={(l) => l.slug}
        columns={[
          {
            label: t('monitors.page.col.location'),
            // one box: the narrow layout draws a cell as label and value
            cell: (l) => (
              <span>
                {locationLabel(l)} {l.private && <span className="sw-pill sw-grey sw-loc-private">{t('monitors.filters.private')}</span>}
              </span>
            ),
          },
          {
            label: t('monitors.page.col.state'),
            cell: (l) => <span className={`sw-pill sw-${LOCATION_TONE[l.status]}`}>{stateText(l.status)}</span>,
          },
          {
            label: t('monitors.page.col.probe'),
            cell: (l) => (l.online ? t('monitors.page.online') : <span className="sw-loc-offline">{t('monitors.page.offline')}</span>),
          },
          { label: t('monitors.page.col.lastCheck'), cell: (l) => fmtTime(l.last_checked_at, t('monitors.never')) },
          { label: t('monitors.list.col.response'), cell: (l) => ms(l.response_time) },
          { label: t('monitors.list.col.uptime24h'), cell: (l) => pct(l.uptime_24h) },
          { label: t('monitors.page.lastError'), className: 'sw-wrap-anywhere', cell: (l) => l.last_error ?? '—' },
        ]}
      />
    </Card>
  );
}

/** 'Issued by Let's Encrypt R3 for example.com, expires 1 Mar 2027' */
/** "Expires 2027-06-17 · Gandi SAS · client transfer prohibited" */
export function registrationText(r: NonNullable<Monitor['registration']>): string {
  const expiry = r.expires_at ? t('monitors.page.expires', { date: r.expires_at.slice(0, 10) }) : t('monitors.page.noExpiry');
  return [expiry, r.registrar, r.status.join(', ')].filter(Boolean).join(' · ');
}

export function certificateText(m: Pick<Monitor, 'cert_issuer' | 'cert_subject' | 'cert_expires_at'>): string {
  if (!m.cert_issuer && !m.cert_expires_at) return t('monitors.page.certNotSeen');
  // one sentence per case, so each language can order issuer, subject and date its own way
  const values = { issuer: m.cert_issuer ?? '', subject: m.cert_subject ?? '', date: m.cert_expires_at ? fmtDate(m.cert_expires_at) : '' };
  if (!m.cert_issuer) return t('monitors.page.certExpires', values);
  const key = m.cert_subject ? 'monitors.page.certIssuedFor' : 'monitors.page.certIssued';
  return t(m.cert_expires_at ? `${key}Expires` : key, values);
}

/** A synthetic monitor's steps timed over the checks the page lists. */
function SyntheticTimings({ m }: { m: Monitor }) {
  const checks = useStore($checks);
  return <StepTimingCard m={m} checks={checks.status === 'ready' ? checks.data.items : null} />;
}

function ChecksCard({ id, locations }: { id: string; locations: Monitor['location_status'] }) {
  // A check names its location by slug; the page names it as the Locations section does.
  const nameOf = (slug: string | null) => {
    const l = locations.find((x) => x.slug === slug);
    return l ? locationLabel(l) : (slug ?? t('monitors.page.deletedLocation'));
  };
  const checks = useStore($checks);
  const page = checks.status === 'ready' ? checks.data : null;
  const pager = page && (page.cursors.length > 0 || page.items.length === CHECKS_PAGE) && (
    <Pager
      label={t('monitors.page.checksPages')}
      hasNewer={page.cursors.length > 0}
      hasOlder={page.items.length >= CHECKS_PAGE}
      onNewer={() => void loadChecks(id, page.cursors.at(-1), page.cursors.slice(0, -1))}
      onOlder={() => void loadChecks(id, page.items.at(-1)?.checked_at, [...page.cursors, page.before])}
    />
  );
  return (
    <Card title={t('monitors.page.recentChecks')} testId="checks" footer={pager || undefined}>
      <LoadView load={checks} isEmpty={(d) => d.items.length === 0} empty={t('monitors.page.noChecks')}>
        {(d) => (
          <Table
            compact
            rows={d.items}
            rowKey={(c) => c.checked_at}
            columns={[
              { label: t('monitors.page.col.time'), cell: (c) => fmtTime(c.checked_at, '—') },
              ...(locations.length > 1
                ? [{ label: t('monitors.page.col.location'), cell: (c: { location: string | null }) => nameOf(c.location) }]
                : []),
              { label: t('monitors.list.col.status'), cell: (c) => stateText(c.status) },
              { label: 'HTTP', cell: (c) => c.http_code ?? '—' },
              { label: t('monitors.list.col.response'), cell: (c) => ms(c.response_time) },
              { label: t('monitors.page.col.error'), className: 'sw-wrap-anywhere', cell: (c) => c.error ?? '—' },
            ]}
          />
        )}
      </LoadView>
    </Card>
  );
}

function IncidentsCard() {
  const incidents = useStore($incidents);
  return (
    <Card
      title={t('monitors.page.incidents')}
      testId="incidents"
      action={<a href="/monitors/incidents">{t('monitors.page.allIncidents')}</a>}
    >
      <LoadView load={incidents} isEmpty={(d) => d.length === 0} empty={t('monitors.page.noIncidents')}>
        {(list) => (
          <ul className="sw-mp-list">
            {list.map((i) => (
              <li key={i.id}>
                <a href={`/monitors/incidents/${i.id}`}>{i.title}</a>
                <span className="sw-muted sw-small">
                  {' '}
                  · {t('monitors.page.incidentStatus', { status: i.status })} · {fmtTime(i.started_at, '')}
                  {i.resolved_at ? ` – ${fmtTime(i.resolved_at, '')}` : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </LoadView>
    </Card>
  );
}

function WindowsCard() {
  const windows = useStore($windows);
  return (
    <Card
      title={t('monitors.status.maintenance')}
      testId="maintenance"
      action={<a href="/monitors/maintenance">{t('monitors.page.allWindows')}</a>}
    >
      <LoadView load={windows} isEmpty={(d) => d.length === 0} empty={t('monitors.page.noWindows')}>
        {(list) => (
          <ul className="sw-mp-list">
            {list.map((w) => (
              <li key={w.id}>
                {w.title}
                <span className="sw-muted sw-small">
                  {' '}
                  · {t('monitors.page.windowState', { state: w.state })} · {fmtTime(w.next_starts_at ?? w.starts_at, '')} –{' '}
                  {fmtTime(w.next_ends_at ?? w.ends_at, '')}
                  {w.monitor_ids.length === 0 ? ` · ${t('monitors.page.allMonitors')}` : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </LoadView>
    </Card>
  );
}
