// The company's default language of its public pages (issue 32): what visitors of its status page
// read when their browser names none of the languages the page offers (the status page screen
// chooses those). Company admins change it; the list names each language in itself.
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { LOCALE_NAMES, PUBLIC_LOCALES } from '../../../../lib/i18n/locales.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { $company, loadCompanySettings } from './store.ts';

export function DefaultLanguage() {
  const company = useStore($company);
  const role = useStore($role);
  if (company.status !== 'ready') return null;
  return (
    <DefaultLanguageForm
      key={`${company.data.id}|${company.data.default_language}`}
      id={company.data.id}
      current={company.data.default_language ?? 'en'}
      superAdmin={role === 'super_admin'}
    />
  );
}

function DefaultLanguageForm(p: { id: string; current: string; superAdmin: boolean }) {
  const [value, setValue] = useState(p.current);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <section className="sw-card" aria-labelledby="settings-language" data-testid="settings-default-language">
      <header className="sw-card-head">
        <h3 id="settings-language">{t('statusPageLanguages.defaultLanguage')}</h3>
      </header>
      <form
        className="sw-form sw-card-body"
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setAlert(null);
          try {
            const { data, error } = await api.PUT('/api/v1/companies/{id}/profile', {
              params: { path: { id: p.id } },
              body: { default_language: value as (typeof PUBLIC_LOCALES)[number] },
            });
            if (data) {
              setAlert({ ok: true, text: t('statusPageLanguages.saved') });
              await loadCompanySettings(p.id, p.superAdmin);
            } else setAlert({ ok: false, text: errorText(error, t('statusPageLanguages.failed')) });
          } catch (err) {
            setAlert({ ok: false, text: errorText(err, t('statusPageLanguages.failed')) });
          } finally {
            setBusy(false);
          }
        }}
      >
        {alert && (
          <div className={`sw-banner ${alert.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
            {alert.text}
          </div>
        )}
        <label className="sw-field">
          <span>{t('statusPageLanguages.defaultLanguage')}</span>
          <select value={value} onChange={(e) => setValue(e.target.value)} aria-describedby="settings-language-hint">
            {PUBLIC_LOCALES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LOCALE_NAMES[l]}
              </option>
            ))}
          </select>
        </label>
        <p id="settings-language-hint" className="sw-muted">
          {t('statusPageLanguages.defaultLanguageHint')}
        </p>
        <div className="sw-modal-actions">
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy || value === p.current}>
            {busy ? t('statusPageLanguages.saving') : t('statusPageLanguages.saveDefault')}
          </button>
        </div>
      </form>
    </section>
  );
}
