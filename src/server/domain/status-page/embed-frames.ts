// The iframe embeds (issue 32): /embed/badge (a pill with the page's state, linking to the page)
// and /embed/banner (the ongoing incident or maintenance, else an empty transparent frame).
// Server-rendered HTML with no script at all; its one stylesheet is allowed by its hash in the
// frame's own CSP, which also lets any site frame it (frame-ancestors *), and nothing else.
import { cspHashSource } from './csp-hash.ts';
import { escapeAttr, escapeText } from '../../../lib/html-escape.ts';
import { directionOf, type Translator } from '../../../lib/i18n/index.ts';
import type { EmbedKey } from '../../../lib/i18n/messages/embed/index.ts';
import type { EmbedStatus } from '../../../lib/embed/status.ts';
import { IMPACT_COLOR, THEME_COLORS, statusKey, type EmbedTheme, type ThemeColors } from '../../../lib/embed/theme.ts';
import { STATUS_COLOR } from '../../../lib/status.ts';

export type EmbedFrameKind = 'badge' | 'banner';

export interface EmbedFrameOptions {
  theme: EmbedTheme;
  accent: string;
}

export interface EmbedFrame {
  html: string;
  /** the frame's Content-Security-Policy: its stylesheet's hash, framing by anyone */
  csp: string;
}

const vars = (c: ThemeColors, accent: string) => `:root{--fg:${c.text};--mu:${c.muted};--bg:${c.bg};--ln:${c.border};--ac:${accent}}`;

function themeCss(o: EmbedFrameOptions): string {
  if (o.theme !== 'auto') return vars(THEME_COLORS[o.theme], o.accent);
  return `${vars(THEME_COLORS.light, o.accent)}@media (prefers-color-scheme:dark){${vars(THEME_COLORS.dark, o.accent)}}`;
}

const BASE_CSS =
  'html,body{margin:0;background:transparent}' +
  'body{padding:2px;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg)}' +
  'a{color:inherit}a:focus-visible{outline:2px solid var(--ac);outline-offset:2px}' +
  '.b{display:inline-flex;align-items:center;gap:.5em;padding:.25em .75em;border:1px solid var(--ac);border-radius:999px;background:var(--bg);text-decoration:none;white-space:nowrap}' +
  '.d{flex:none;width:.6em;height:.6em;border-radius:50%;background:var(--st)}' +
  '.n{padding:.6em 1em;background:var(--bg);border:1px solid var(--ln);border-inline-start:6px solid var(--st);border-radius:8px;overflow-wrap:anywhere}' +
  '.k{display:block;color:var(--mu);font-size:12px}.n a{font-weight:600}';

/** The frame's HTML and CSP for one document, language and look. */
export function embedFrame(kind: EmbedFrameKind, doc: EmbedStatus, tr: Translator<EmbedKey>, o: EmbedFrameOptions): EmbedFrame {
  const { t } = tr;
  let body = '';
  let stateColor: string = STATUS_COLOR[doc.status];
  if (kind === 'badge') {
    const words = t(statusKey(doc.status, doc.indicator));
    const title = t('badge.title', { name: doc.page.name, status: words });
    body = `<a class="b" href="${escapeAttr(doc.page.url)}" target="_blank" rel="noopener" title="${escapeAttr(title)}"><span class="d"></span><span>${escapeText(words)}</span></a>`;
  } else if (doc.ongoing.length > 0) {
    const e = doc.ongoing[0];
    stateColor = IMPACT_COLOR[e.impact];
    const others = doc.ongoing.length - 1;
    const more =
      others > 0
        ? ` <a class="k" href="${escapeAttr(doc.page.url)}" target="_blank" rel="noopener">${escapeText(t('banner.more', { count: others }))}</a>`
        : '';
    body =
      `<div class="n" role="region" aria-label="${escapeAttr(t('banner.region'))}">` +
      `<span class="k">${escapeText(`${t(`kind.${e.kind}`)} · ${t(`impact.${e.impact}`)}`)}</span>` +
      `<a href="${escapeAttr(e.url)}" target="_blank" rel="noopener">${escapeText(e.title)}</a>${more}</div>`;
  }
  const css = `${themeCss(o)}:root{--st:${stateColor}}${BASE_CSS}`;
  const title = kind === 'badge' ? doc.page.name : t('banner.region');
  const html =
    `<!doctype html><html lang="${escapeAttr(tr.locale)}" dir="${directionOf(tr.locale)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${escapeText(title)}</title><style>${css}</style></head><body>${body}</body></html>`;
  const csp = `default-src 'none'; style-src ${cspHashSource(css)}; base-uri 'none'; form-action 'none'; frame-ancestors *`;
  return { html, csp };
}
