// The "Embed on your site" card of /monitors/status-page (issue 32, docs/features/embeds.md):
// the script and iframe snippets for the options chosen, the CSP sources a site needs, and a live
// preview (the frames themselves, from the page's host). A page that is not public says that
// its embeds show nothing elsewhere. Read-only: nothing here changes the page.
import { useState } from 'react';
import { LOCALE_NAMES, PUBLIC_LOCALES } from '../../../../lib/i18n/locales.ts';
import { t, type ConsoleKey } from '../../i18n.ts';
import {
  type BannerPosition,
  cspSnippet,
  DEFAULT_EMBED_CHOICE,
  type EmbedChoice,
  type EmbedStyle,
  type EmbedThemeChoice,
  frameSnippet,
  frameUrl,
  isAccent,
  originOf,
  scriptSnippet,
} from './embed-snippets.ts';
import './embed-card.css';

const STYLES: Array<[EmbedStyle, ConsoleKey]> = [
  ['badge', 'embed.styleBadge'],
  ['banner', 'embed.styleBanner'],
];
const THEMES: Array<[EmbedThemeChoice, ConsoleKey]> = [
  ['auto', 'embed.themeAuto'],
  ['light', 'embed.themeLight'],
  ['dark', 'embed.themeDark'],
];
const POSITIONS: Array<[BannerPosition, ConsoleKey]> = [
  ['bottom-right', 'embed.positionBottomRight'],
  ['bottom-left', 'embed.positionBottomLeft'],
  ['top', 'embed.positionTop'],
  ['bottom', 'embed.positionBottom'],
];

export function EmbedCard(p: { pageUrl: string | null; isPublic: boolean }) {
  const [choice, setChoice] = useState<EmbedChoice>(DEFAULT_EMBED_CHOICE);
  if (!p.pageUrl) return null;
  const origin = originOf(p.pageUrl);
  const set = (patch: Partial<EmbedChoice>) => setChoice({ ...choice, ...patch });
  const accentBad = choice.accent !== '' && !isAccent(choice.accent);
  return (
    <section className="sw-card sw-embed" aria-labelledby="sp-embed-title">
      <header className="sw-card-head">
        <h3 id="sp-embed-title">{t('embed.title')}</h3>
      </header>
      <p className="sw-muted">{t('embed.intro')}</p>
      {!p.isPublic && (
        <p className="sw-banner" role="note">
          {t('embed.privateHint')}
        </p>
      )}
      <div className="sw-embed-options">
        <label>
          {t('embed.style')}
          <select value={choice.style} onChange={(e) => set({ style: e.target.value as EmbedStyle })}>
            {STYLES.map(([v, k]) => (
              <option key={v} value={v}>
                {t(k)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('embed.theme')}
          <select value={choice.theme} onChange={(e) => set({ theme: e.target.value as EmbedThemeChoice })}>
            {THEMES.map(([v, k]) => (
              <option key={v} value={v}>
                {t(k)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('embed.language')}
          <select value={choice.lang} onChange={(e) => set({ lang: e.target.value })}>
            <option value="">{t('embed.languageAuto')}</option>
            {PUBLIC_LOCALES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LOCALE_NAMES[l]}
              </option>
            ))}
          </select>
        </label>
        {choice.style === 'banner' && (
          <label>
            {t('embed.position')}
            <select value={choice.position} onChange={(e) => set({ position: e.target.value as BannerPosition })}>
              {POSITIONS.map(([v, k]) => (
                <option key={v} value={v}>
                  {t(k)}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          {t('embed.accent')}
          <input
            value={choice.accent}
            placeholder="#0a66c2"
            maxLength={7}
            aria-invalid={accentBad}
            aria-describedby="sp-embed-accent-hint"
            onChange={(e) => set({ accent: e.target.value.trim() })}
          />
          <small id="sp-embed-accent-hint" className={accentBad ? 'sw-sp-warn' : 'sw-hint'}>
            {accentBad ? t('embed.accentInvalid') : t('embed.accentHint')}
          </small>
        </label>
      </div>
      <Snippet id="sp-embed-script" label={t('embed.scriptSnippet')} value={scriptSnippet(origin, choice)} />
      <Snippet id="sp-embed-frame" label={t('embed.frameSnippet')} value={frameSnippet(origin, choice, t('embed.title'))} />
      <Snippet id="sp-embed-csp" label={t('embed.cspSnippet')} value={cspSnippet(origin)} hint={t('embed.cspHint')} />
      <h4>{t('embed.preview')}</h4>
      <div className="sw-embed-preview">
        <iframe
          key={frameUrl(origin, choice)}
          src={frameUrl(origin, choice)}
          title={t('embed.preview')}
          width={choice.style === 'badge' ? 260 : 480}
          height={choice.style === 'badge' ? 36 : 90}
        />
      </div>
      {choice.style === 'banner' && <p className="sw-hint">{t('embed.previewBanner')}</p>}
    </section>
  );
}

function Snippet(p: { id: string; label: string; value: string; hint?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="sw-embed-snippet">
      <label htmlFor={p.id}>{p.label}</label>
      <div className="sw-copy-row">
        <textarea
          id={p.id}
          readOnly
          rows={p.value.split('\n').length + 1}
          value={p.value}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
          className="sw-mono"
        />
        <button
          type="button"
          className="sw-btn sw-btn-small"
          onClick={() =>
            void navigator.clipboard?.writeText(p.value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? t('embed.copied') : t('embed.copy')}
        </button>
      </div>
      {p.hint && <small className="sw-hint">{p.hint}</small>}
    </div>
  );
}
