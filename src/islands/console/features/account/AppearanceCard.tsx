// The Appearance card of /settings/account: the user's console look (spec: "Default UI settings:
// theme cyan, font Montserrat, light version on") and language. Saved for the person, on every
// device; the page takes it at once (a new language draws the console again in it).
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { UI_FONTS, UI_LANGUAGES, UI_THEMES, type UiLanguage, type UiSettings } from '../../../../lib/ui-settings.ts';
import { LOCALE_NAMES } from '../../../../lib/i18n/locales.ts';
import { Card } from '../../ui/Card.tsx';
import { t, type ConsoleKey } from '../../i18n.ts';
import { $uiSettings, saveUiSettings } from '../../stores/ui-settings.ts';

const THEME_KEY: Record<UiSettings['theme'], ConsoleKey> = {
  cyan: 'account.appearance.themeCyan',
  blue: 'account.appearance.themeBlue',
  green: 'account.appearance.themeGreen',
  purple: 'account.appearance.themePurple',
  company: 'account.appearance.themeCompany',
};
const FONT_KEY: Record<UiSettings['font'], ConsoleKey> = {
  montserrat: 'account.appearance.fontMontserrat',
  system: 'account.appearance.fontSystem',
};
/** The select's value for "as my browser says" (null in the settings) */
const BROWSER = '';

export function AppearanceCard() {
  const saved = useStore($uiSettings);
  const [draft, setDraft] = useState<UiSettings>(saved);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => setDraft(saved), [saved]);
  const set = (change: Partial<UiSettings>) => {
    setDraft({ ...draft, ...change });
    setMessage(null);
  };
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const r = await saveUiSettings(draft);
    setBusy(false);
    setMessage(r.ok ? { ok: true, text: t('account.appearance.saved') } : { ok: false, text: r.text });
  }
  return (
    <Card title={t('account.appearance.title')} testId="appearance">
      <form className="sw-form" onSubmit={(e) => void submit(e)}>
        <fieldset className="sw-fieldset sw-themes">
          <legend>{t('account.appearance.theme')}</legend>
          {UI_THEMES.map((theme) => (
            <label key={theme} className="sw-check">
              <input type="radio" name="theme" value={theme} checked={draft.theme === theme} onChange={() => set({ theme })} />
              <span className={`sw-swatch sw-swatch-${theme}`} aria-hidden="true" />
              {t(THEME_KEY[theme])}
            </label>
          ))}
        </fieldset>
        <label>
          {t('account.appearance.font')}
          <select value={draft.font} onChange={(e) => set({ font: e.target.value as UiSettings['font'] })}>
            {UI_FONTS.map((f) => (
              <option key={f} value={f}>
                {t(FONT_KEY[f])}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('shell.language')}
          <select
            value={draft.language ?? BROWSER}
            onChange={(e) => set({ language: e.target.value === BROWSER ? null : (e.target.value as UiLanguage) })}
          >
            {UI_LANGUAGES.map((l) => (
              // each language in its own name, so a reader finds theirs whatever the console shows
              <option key={l} value={l} lang={l}>
                {LOCALE_NAMES[l]}
              </option>
            ))}
            <option value={BROWSER}>{t('shell.languageFromBrowser')}</option>
          </select>
        </label>
        <label className="sw-check">
          <input type="checkbox" checked={draft.light_version} onChange={(e) => set({ light_version: e.target.checked })} />
          {t('account.appearance.lightVersion')}
        </label>
        {message && (
          <p className={`sw-banner ${message.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role={message.ok ? 'status' : 'alert'}>
            {message.text}
          </p>
        )}
        <div>
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
            {t('account.appearance.save')}
          </button>
        </div>
      </form>
    </Card>
  );
}
