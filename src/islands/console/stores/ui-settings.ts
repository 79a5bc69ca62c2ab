// The signed-in user's console look (theme, font, light version) and language: what the page painted first
// (the server put it on <html>), loaded again once the user is known (after a sign-in without a
// page load), and saved from the Appearance card. Applying it only sets the <html> attributes
// the theme tokens of theme.css key on.
import { atom } from 'nanostores';
import { DEFAULT_UI_SETTINGS, uiSettingsAttributes, type UiSettings } from '../../../lib/ui-settings.ts';
import { api, detailOr } from '../api.ts';
import { boot } from '../boot.ts';
import { consoleLocale, setConsoleLocale, t } from '../i18n.ts';

export const $uiSettings = atom<UiSettings>(DEFAULT_UI_SETTINGS);

export function applyUiSettings(s: UiSettings): void {
  $uiSettings.set(s);
  const root = document.documentElement;
  for (const [name, value] of Object.entries(uiSettingsAttributes(s))) root.setAttribute(name, value);
}

/** The console in the user's language: their choice, else their browser's (null). */
async function applyLanguage(s: UiSettings): Promise<void> {
  const wanted = s.language ?? boot().browserLocale;
  if (wanted !== consoleLocale()) await setConsoleLocale(wanted);
}

export async function loadUiSettings(): Promise<void> {
  const r = await api.GET('/api/v1/auth/ui-settings').catch(() => null);
  if (r?.data) {
    applyUiSettings(r.data);
    await applyLanguage(r.data);
  }
}

export async function saveUiSettings(change: Partial<UiSettings>): Promise<{ ok: true } | { ok: false; text: string }> {
  try {
    const { data, error } = await api.PUT('/api/v1/auth/ui-settings', { body: change });
    if (!data) return { ok: false, text: detailOr(error, t('account.appearance.saveFailed')) };
    applyUiSettings(data);
    await applyLanguage(data);
    return { ok: true };
  } catch (e) {
    return { ok: false, text: detailOr(e, t('account.appearance.saveFailed')) };
  }
}
