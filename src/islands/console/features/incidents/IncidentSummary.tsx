// The incident's summary by the operator's language model (issue 33, item 3): the newest one, when
// and by which model it was written, from the evidence of which time, and exactly what the model
// was sent; company admins write one now with "Write summary". Everyone sees a summary once there
// is one; admins also see the section while the platform offers summaries, to write the first.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { components } from '../../../../api/schema.d.ts';
import { can } from '../../../../lib/permissions.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { fmtTime } from '../../ui/format.ts';

type Summary = components['schemas']['IncidentModelSummary'];
type Settings = components['schemas']['IncidentSummarySettings'];

export function IncidentSummary({ incidentId, companyId }: { incidentId: string; companyId: string }) {
  const role = useStore($role);
  const mayWrite = can(role, 'update', 'monitors') && can(role, 'view', 'settings');
  const [summary, setSummary] = useState<Summary | null>(null);
  const [settings, setSettings] = useState<Settings | null>(null);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setSummary(null);
    setAlert(null);
    void api.GET('/api/v1/incidents/{id}/summary', { params: { path: { id: incidentId } } }).then((r) => {
      if (live && r.data) setSummary(r.data);
    });
    if (mayWrite)
      void api
        .GET('/api/v1/company/incident-summaries', { params: { query: role === 'super_admin' ? { tenant: companyId } : {} } })
        .then((r) => {
          if (live && r.data) setSettings(r.data);
        });
    return () => {
      live = false;
    };
  }, [incidentId, companyId, mayWrite, role]);
  if (!summary && !settings?.available) return null;
  const write = async () => {
    setBusy(true);
    setAlert(null);
    try {
      const { data, error } = await api.POST('/api/v1/incidents/{id}/summary', { params: { path: { id: incidentId } } });
      if (data) setSummary(data);
      else setAlert(errorText(error, t('incidentSummary.failed')));
    } catch (err) {
      setAlert(errorText(err, t('incidentSummary.failed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="sw-card" aria-labelledby="incident-summary" data-testid="incident-summary">
      <header className="sw-card-head">
        <h3 id="incident-summary">{t('incidentSummary.title')}</h3>
      </header>
      <div className="sw-card-body">
        {alert && (
          <div className="sw-banner sw-banner-error" role="alert">
            {alert}
          </div>
        )}
        {summary ? (
          <>
            <p className="sw-wrap-anywhere" style={{ whiteSpace: 'pre-line' }}>
              {summary.text}
            </p>
            <p className="sw-muted">
              {t('incidentSummary.writtenBy', {
                when: fmtTime(summary.created_at, ''),
                model: summary.model,
                evidenceAt: fmtTime(summary.evidence_updated_at, ''),
                count: summary.evidence.items.length,
              })}
            </p>
            <details>
              <summary>{t('incidentSummary.whatWasSent')}</summary>
              {summary.prompt.map((m, n) => (
                <pre key={`${n}-${m.role}`} className="sw-pre">
                  {m.content}
                </pre>
              ))}
            </details>
          </>
        ) : (
          <p className="sw-muted">{t('incidentSummary.none')}</p>
        )}
        {mayWrite && settings?.available && !settings.enabled && <p className="sw-muted">{t('incidentSummary.turnOnInSettings')}</p>}
        {mayWrite && settings?.available && settings.enabled && (
          <div className="sw-modal-actions">
            <button type="button" className="sw-btn sw-btn-primary" disabled={busy} onClick={() => void write()}>
              {busy ? t('incidentSummary.writing') : t('incidentSummary.write')}
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
