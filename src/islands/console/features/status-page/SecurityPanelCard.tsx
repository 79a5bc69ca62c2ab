// The "Security panel" section of /monitors/status-page (issue 32 item 5): the switch that puts
// the security panel on the public page (off by default), and a preview of exactly what it shows
// of the company's verified domains. Company admins switch it; viewers read it.
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { t } from '../../i18n.ts';
import { fmtDate } from '../../ui/format.ts';
import {
  $securityPanel,
  $securityPanelAlert,
  $securityPanelSaving,
  loadSecurityPanel,
  saveSecurityPanel,
  type SecurityPanelSettings,
} from './panels-store.ts';
import './security-panel.css';

type Domain = SecurityPanelSettings['preview'][number];

/** What the page says of one domain, in one line. */
function facts(d: Domain): string {
  if (d.kind === 'host') {
    if (!d.tls) return t('pagePanels.notMeasured');
    const hsts = d.tls.hsts.present
      ? t('pagePanels.hstsOn', { seconds: d.tls.hsts.max_age, preload: d.tls.hsts.preload ? 'yes' : 'no' })
      : t('pagePanels.hstsOff');
    return [
      d.tls.grade ? t('pagePanels.grade', { grade: d.tls.grade }) : t('pagePanels.noGrade'),
      hsts,
      ...(d.tls.cert_days_left === null ? [] : [t('pagePanels.certDays', { days: d.tls.cert_days_left })]),
      t('pagePanels.measured', { date: fmtDate(d.tls.measured_at) }),
    ].join(' · ');
  }
  if (!d.dns) return t('pagePanels.notMeasured');
  return [
    ...(d.dns.spf ? [t('pagePanels.spf', { verdict: d.dns.spf.pass ? 'pass' : 'fail' })] : []),
    ...(d.dns.dmarc ? [t('pagePanels.dmarc', { verdict: d.dns.dmarc.pass ? 'pass' : 'fail', policy: d.dns.dmarc.policy ?? 'none' })] : []),
    ...(d.dns.registration_days_left === null ? [] : [t('pagePanels.registrationDays', { days: d.dns.registration_days_left })]),
    t('pagePanels.measured', { date: fmtDate(d.dns.measured_at) }),
  ].join(' · ');
}

export function SecurityPanelCard(p: { tenant: string | null; mayEdit: boolean }) {
  const load = useStore($securityPanel);
  const alert = useStore($securityPanelAlert);
  const saving = useStore($securityPanelSaving);
  useEffect(() => {
    void loadSecurityPanel(p.tenant);
  }, [p.tenant]);
  return (
    <section className="sw-card sw-sp-security" aria-labelledby="sp-security-title">
      <header className="sw-card-head">
        <h3 id="sp-security-title">{t('pagePanels.securityTitle')}</h3>
      </header>
      <p className="sw-hint">{t('pagePanels.securityIntro')}</p>
      {load.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {load.message}
        </div>
      )}
      {load.status === 'ready' && (
        <>
          {p.mayEdit ? (
            <label className="sw-check">
              <input
                type="checkbox"
                checked={load.data.security_panel}
                disabled={saving}
                onChange={(e) => void saveSecurityPanel(p.tenant, e.target.checked)}
              />
              <span>{t('pagePanels.securitySwitch')}</span>
            </label>
          ) : (
            <p>{load.data.security_panel ? t('pagePanels.securityOn') : t('pagePanels.securityOff')}</p>
          )}
          <h4>{load.data.security_panel ? t('pagePanels.previewShown') : t('pagePanels.previewTitle')}</h4>
          {load.data.preview.length === 0 ? (
            <p className="sw-muted">{t('pagePanels.previewNone')}</p>
          ) : (
            <ul className="sw-sp-security-preview" data-testid="security-preview">
              {load.data.preview.map((d) => (
                <li key={d.hostname}>
                  <strong className="sw-wrap-anywhere">{d.hostname}</strong>
                  <div className="sw-muted">{facts(d)}</div>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {alert && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {alert.text}
        </div>
      )}
    </section>
  );
}
