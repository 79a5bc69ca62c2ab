// The "Languages" section of /monitors/status-page (issue 32): which of the twelve public
// languages the status page offers (the company's default always among them) and the page's
// time zone. Saved with the page's saved layout, unchanged; company admins change it, viewers read it.
import { useState } from 'react';
import { LOCALE_NAMES, PUBLIC_LOCALES, type PublicLocale } from '../../../../lib/i18n/locales.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { inputOf, layoutOf, type Settings } from './layout.ts';

export function LanguagesCard(p: { settings: Settings; tenant: string | null; mayEdit: boolean; onSaved: (s: Settings) => void }) {
  const { settings, tenant, mayEdit } = p;
  const def = (settings.default_language ?? 'en') as PublicLocale;
  const [chosen, setChosen] = useState<string[]>(settings.languages ?? [def]);
  const [zone, setZone] = useState(!settings.time_zone || settings.time_zone === 'UTC' ? '' : settings.time_zone);
  const [saving, setSaving] = useState(false);
  const [alert, setAlert] = useState<{ ok: boolean; text: string } | null>(null);
  const toggle = (l: string, on: boolean) => setChosen(on ? [...chosen, l] : chosen.filter((x) => x !== l));
  const save = async () => {
    setSaving(true);
    setAlert(null);
    try {
      const { data, error } = await api.PUT('/api/v1/status-page/settings', {
        params: { query: { tenant: tenant ?? undefined } },
        body: { ...inputOf(layoutOf(settings)), languages: chosen as PublicLocale[], time_zone: zone.trim() || null },
      });
      if (data) {
        p.onSaved(data);
        setAlert({ ok: true, text: t('statusPageLanguages.saved') });
      } else setAlert({ ok: false, text: errorText(error, t('statusPageLanguages.failed')) });
    } catch (e) {
      setAlert({ ok: false, text: errorText(e, t('statusPageLanguages.failed')) });
    } finally {
      setSaving(false);
    }
  };
  return (
    <section className="sw-card" aria-labelledby="sp-languages-title">
      <header className="sw-card-head">
        <h3 id="sp-languages-title">{t('statusPageLanguages.title')}</h3>
      </header>
      <p className="sw-muted">{t('statusPageLanguages.intro', { default: LOCALE_NAMES[def] ?? def })}</p>
      {alert && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {alert.text}
        </div>
      )}
      {mayEdit ? (
        <>
          <fieldset className="sw-sp-languages" disabled={saving}>
            <legend className="sw-visually-hidden">{t('statusPageLanguages.title')}</legend>
            {PUBLIC_LOCALES.map((l) => (
              <label key={l} lang={l}>
                <input
                  type="checkbox"
                  checked={l === def || chosen.includes(l)}
                  disabled={l === def}
                  onChange={(e) => toggle(l, e.target.checked)}
                />{' '}
                {l === def ? t('statusPageLanguages.defaultNote', { name: LOCALE_NAMES[l] }) : LOCALE_NAMES[l]}
              </label>
            ))}
          </fieldset>
          <label className="sw-field">
            <span>{t('statusPageLanguages.timeZone')}</span>
            <input
              type="text"
              value={zone}
              placeholder="UTC"
              maxLength={64}
              disabled={saving}
              onChange={(e) => setZone(e.target.value)}
              aria-describedby="sp-tz-hint"
            />
          </label>
          <p id="sp-tz-hint" className="sw-muted">
            {t('statusPageLanguages.timeZoneHint')}
          </p>
        </>
      ) : (
        // a viewer reads what is offered (controls they cannot use would only be noise)
        <dl className="sw-dl">
          <dt>{t('statusPageLanguages.title')}</dt>
          <dd>
            {PUBLIC_LOCALES.filter((l) => l === def || chosen.includes(l))
              .map((l) => LOCALE_NAMES[l])
              .join(', ')}
          </dd>
          <dt>{t('statusPageLanguages.timeZone')}</dt>
          <dd>{zone || 'UTC'}</dd>
        </dl>
      )}
      {mayEdit ? (
        <button type="button" className="sw-btn sw-btn-primary" disabled={saving} onClick={() => void save()}>
          {saving ? t('statusPageLanguages.saving') : t('statusPageLanguages.save')}
        </button>
      ) : (
        <p className="sw-muted">{t('statusPageLanguages.readOnly')}</p>
      )}
    </section>
  );
}
