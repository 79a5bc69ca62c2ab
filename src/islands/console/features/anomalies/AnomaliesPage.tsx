// /settings/anomalies (issue 33, item 2): how readily the company is told of latency anomalies and
// of probes disagreeing with its own traffic (company admins change it; members read it), and
// the recent anomaly episodes with their evidence. Nothing of it while Advanced analytics is off.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { t } from '../../i18n.ts';
import { $role, $user } from '../../stores/auth.ts';
import { $flags, $flagsLoaded, loadFlags } from '../../stores/flags.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { ErrorPanel, Skeleton } from '../../ui/Card.tsx';
import { fmtTime } from '../../ui/format.ts';
import './anomalies.css';
import {
  $anomalies,
  $anomaliesAlert,
  $anomalySettings,
  LEVELS,
  loadAnomalies,
  saveAnomalySettings,
  type AnomalyEpisode,
  type AnomalyLevel,
  type AnomalySettings,
} from './store.ts';

const levelLabel = (l: AnomalyLevel) => t(`anomalies.level.${l}`);

export function AnomaliesPage({ title }: { title: string }) {
  const role = useStore($role);
  const user = useStore($user);
  const chosen = useStore($selectedTenant);
  const flags = useStore($flags);
  const flagsLoaded = useStore($flagsLoaded);
  const superAdmin = role === 'super_admin';
  const tenant = superAdmin ? chosen : null;
  const companyKnown = superAdmin ? !!chosen : !!user?.company_id;
  const on = flags.ENABLE_ADVANCED_ANALYTICS === true;
  const settings = useStore($anomalySettings);
  const alert = useStore($anomaliesAlert);
  useEffect(() => {
    void loadFlags();
  }, []);
  useEffect(() => {
    $anomaliesAlert.set(null);
    if (companyKnown && on) void loadAnomalies(tenant);
  }, [tenant, companyKnown, on]);
  return (
    <div className="sw-admin sw-settings">
      <nav aria-label={t('anomalies.breadcrumb')} className="sw-breadcrumb">
        <a href="/settings">{t('anomalies.settings')}</a> / <span aria-current="page">{t('anomalies.name')}</span>
      </nav>
      <h2 className="sw-page-title">{title}</h2>
      {!flagsLoaded ? (
        <Skeleton rows={2} />
      ) : !on ? (
        <p className="sw-banner sw-banner-info" role="status" data-testid="anomalies-off">
          {t('anomalies.flagOff')}
        </p>
      ) : !companyKnown ? (
        <p className="sw-banner sw-banner-info" role="status">
          {t('anomalies.chooseCompany')}
        </p>
      ) : (
        <>
          <section className="sw-card" aria-labelledby="anomaly-settings-title">
            <header className="sw-card-head">
              <h3 id="anomaly-settings-title">{t('anomalies.sensitivity.title')}</h3>
            </header>
            <div className="sw-card-body">
              {alert && (
                <div className={`sw-banner ${alert.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
                  {alert.text}
                </div>
              )}
              {settings.status === 'loading' && <Skeleton rows={2} />}
              {settings.status === 'error' && <ErrorPanel message={settings.message} />}
              {settings.status === 'ready' && (
                <SettingsForm
                  key={settings.data.updated_at ?? 'defaults'}
                  s={settings.data}
                  tenant={tenant}
                  canChange={can(role, 'update', 'settings')}
                />
              )}
            </div>
          </section>
          <Episodes />
        </>
      )}
    </div>
  );
}

function SettingsForm({ s, tenant, canChange }: { s: AnomalySettings; tenant: string | null; canChange: boolean }) {
  const [latency, setLatency] = useState<AnomalyLevel>(s.latency);
  const [divergence, setDivergence] = useState<AnomalyLevel>(s.divergence);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    await saveAnomalySettings(tenant, { latency, divergence });
    setBusy(false);
  };
  const select = (id: string, label: string, hint: string, value: AnomalyLevel, set: (v: AnomalyLevel) => void) => (
    <div className="sw-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        disabled={!canChange}
        onChange={(e) => set(e.target.value as AnomalyLevel)}
        aria-describedby={`${id}-hint`}
      >
        {LEVELS.map((l) => (
          <option key={l} value={l}>
            {levelLabel(l)}
          </option>
        ))}
      </select>
      <p className="sw-hint" id={`${id}-hint`}>
        {hint}
      </p>
    </div>
  );
  return (
    <form onSubmit={submit} className="sw-form sw-anomaly-form">
      <p className="sw-muted">{t('anomalies.sensitivity.intro')}</p>
      {select('anomaly-latency', t('anomalies.sensitivity.latency'), t('anomalies.sensitivity.latencyHint'), latency, setLatency)}
      {select(
        'anomaly-divergence',
        t('anomalies.sensitivity.divergence'),
        t('anomalies.sensitivity.divergenceHint'),
        divergence,
        setDivergence,
      )}
      {canChange ? (
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          {t('anomalies.save')}
        </button>
      ) : (
        <p className="sw-muted">{t('anomalies.adminsChange')}</p>
      )}
    </form>
  );
}

function Episodes() {
  const episodes = useStore($anomalies);
  return (
    <section className="sw-card" aria-labelledby="anomaly-episodes-title">
      <header className="sw-card-head">
        <h3 id="anomaly-episodes-title">{t('anomalies.recent.title')}</h3>
      </header>
      <div className="sw-card-body">
        {episodes.status === 'loading' && <Skeleton rows={3} />}
        {episodes.status === 'error' && <ErrorPanel message={episodes.message} />}
        {episodes.status === 'ready' && episodes.data.length === 0 && <p className="sw-muted">{t('anomalies.recent.none')}</p>}
        {episodes.status === 'ready' && episodes.data.length > 0 && (
          <ul className="sw-anomaly-list" data-testid="anomaly-episodes">
            {episodes.data.map((e) => (
              <Episode key={e.id} e={e} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function Episode({ e }: { e: AnomalyEpisode }) {
  const first = e.evidence[0];
  return (
    <li className="sw-anomaly">
      <div className="sw-anomaly-head">
        <strong>{first?.source ? <a href={e.monitor_id ? `/monitors/${e.monitor_id}` : first.source.href}>{e.title}</a> : e.title}</strong>
        <span className={`sw-badge ${e.resolved_at ? 'sw-badge-resolved' : 'sw-badge-investigating'}`}>
          {e.resolved_at ? t('anomalies.recent.ended') : t('anomalies.recent.ongoing')}
        </span>
      </div>
      <p className="sw-muted">
        {t(`anomalies.kind.${e.kind}`)} · {t('anomalies.recent.since', { time: fmtTime(e.started_at, '—') })}
        {e.resolved_at ? ` · ${t('anomalies.recent.until', { time: fmtTime(e.resolved_at, '—') })}` : ''}
      </p>
      {e.evidence.map((x) => (
        <p key={x.kind + x.at}>{x.summary}</p>
      ))}
    </li>
  );
}
