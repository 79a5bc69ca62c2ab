// Settings → Company: the company's opt-in to incident summaries by the operator's language model
// (issue 33, item 3), its monthly token budget and this month's usage. Shown only when the
// operator configured a model; company admins change it (audited), super admins for the chosen company.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { fmtNumber } from '../../ui/format.ts';

type Settings = components['schemas']['IncidentSummarySettings'];

export function IncidentSummaryCard({ companyId }: { companyId: string }) {
  const role = useStore($role);
  const query = role === 'super_admin' ? { tenant: companyId } : {};
  const [settings, setSettings] = useState<Settings | null>(null);
  const [enabled, setEnabled] = useState(false);
  const [budget, setBudget] = useState('');
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<{ ok: boolean; text: string } | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const show = (s: Settings) => {
    setSettings(s);
    setEnabled(s.enabled);
    setBudget(s.own_monthly_tokens === null ? '' : String(s.own_monthly_tokens));
  };
  useEffect(() => {
    let live = true;
    void api
      .GET('/api/v1/company/incident-summaries', { params: { query: role === 'super_admin' ? { tenant: companyId } : {} } })
      .then((r) => {
        if (live && r.data) show(r.data);
      });
    return () => {
      live = false;
    };
  }, [companyId, role]);
  if (!settings?.available) return null;
  const save = async () => {
    setAlert(null);
    setFieldError(null);
    const trimmed = budget.trim();
    if (trimmed && (!/^\d+$/.test(trimmed) || Number(trimmed) < 1000 || Number(trimmed) > settings.operator_monthly_tokens)) {
      setFieldError(t('incidentSummary.budgetRange', { max: settings.operator_monthly_tokens }));
      return;
    }
    setBusy(true);
    try {
      const { data, error } = await api.PUT('/api/v1/company/incident-summaries', {
        params: { query },
        body: { enabled, monthly_tokens: trimmed ? Number(trimmed) : null },
      });
      if (data) {
        show(data);
        setAlert({ ok: true, text: t('incidentSummary.saved') });
      } else setAlert({ ok: false, text: errorText(error, t('incidentSummary.saveFailed')) });
    } catch (err) {
      setAlert({ ok: false, text: errorText(err, t('incidentSummary.saveFailed')) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="sw-card" aria-labelledby="settings-incident-summaries" data-testid="settings-incident-summaries">
      <header className="sw-card-head">
        <h3 id="settings-incident-summaries">{t('incidentSummary.settingsTitle')}</h3>
      </header>
      <form
        className="sw-form sw-card-body"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {alert && (
          <div className={`sw-banner ${alert.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
            {alert.text}
          </div>
        )}
        <p className="sw-muted">{t('incidentSummary.settingsHint', { model: settings.model ?? '' })}</p>
        <label className="sw-check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          <span>{t('incidentSummary.enable')}</span>
        </label>
        <label className="sw-field">
          <span>{t('incidentSummary.budget')}</span>
          <input
            inputMode="numeric"
            value={budget}
            placeholder={String(settings.operator_monthly_tokens)}
            onChange={(e) => setBudget(e.target.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby="settings-incident-summaries-budget"
          />
          {fieldError && <span className="sw-field-error">{fieldError}</span>}
        </label>
        <p id="settings-incident-summaries-budget" className="sw-muted">
          {t('incidentSummary.budgetHint', { max: settings.operator_monthly_tokens })}
        </p>
        <p data-testid="incident-summaries-usage">
          {t('incidentSummary.usage', {
            month: settings.month,
            used: fmtNumber(settings.used_tokens),
            budget: fmtNumber(settings.monthly_tokens),
            calls: settings.calls,
          })}
        </p>
        <div className="sw-modal-actions">
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
            {busy ? t('incidentSummary.saving') : t('incidentSummary.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
