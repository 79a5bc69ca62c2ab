// The Appearance card of /settings/account: the user's console look (spec: "Default UI settings:
// theme cyan, font Montserrat, light version on"). Saved for the person, on every device; the
// page takes it at once.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { UI_FONT_LABEL, UI_FONTS, UI_THEME_LABEL, UI_THEMES, type UiSettings } from '../../../../lib/ui-settings.ts';
import { Card } from '../../ui/Card.tsx';
import { $uiSettings, saveUiSettings } from '../../stores/ui-settings.ts';

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
    setMessage(r.ok ? { ok: true, text: 'Appearance saved.' } : { ok: false, text: r.text });
  }
  return (
    <Card title="Appearance" testId="appearance">
      <form className="sw-form" onSubmit={(e) => void submit(e)}>
        <fieldset className="sw-fieldset sw-themes">
          <legend>Theme</legend>
          {UI_THEMES.map((t) => (
            <label key={t} className="sw-check">
              <input type="radio" name="theme" value={t} checked={draft.theme === t} onChange={() => set({ theme: t })} />
              <span className={`sw-swatch sw-swatch-${t}`} aria-hidden="true" />
              {UI_THEME_LABEL[t]}
            </label>
          ))}
        </fieldset>
        <label>
          Font
          <select value={draft.font} onChange={(e) => set({ font: e.target.value as UiSettings['font'] })}>
            {UI_FONTS.map((f) => (
              <option key={f} value={f}>
                {UI_FONT_LABEL[f]}
              </option>
            ))}
          </select>
        </label>
        <label className="sw-check">
          <input type="checkbox" checked={draft.light_version} onChange={(e) => set({ light_version: e.target.checked })} />
          Light version (off: dark surfaces with light text)
        </label>
        {message && (
          <p className={`sw-banner ${message.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role={message.ok ? 'status' : 'alert'}>
            {message.text}
          </p>
        )}
        <div>
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
            Save appearance
          </button>
        </div>
      </form>
    </Card>
  );
}
