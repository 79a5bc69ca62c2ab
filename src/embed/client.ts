// embed.js (issue 32): the status badge or incident banner a company puts on its own site with
// <script src="https://<company host>/embed.js" async data-style="banner"></script>.
// Built by scripts/gen-embed-client.ts (esbuild, minified) into a string the server serves as
// `(function(EMBED){...})({lang, dir, brand, langs, t})`, so the script is static per company and
// language; the data comes from /embed/status.json of the host the script came from.
// Safe on any site: everything is drawn in a Shadow DOM (the site's CSS cannot reach in,
// ours cannot leak out), styles go through a constructed stylesheet (allowed under a strict
// style-src), no eval, no inline handlers, no cookies (credentials omitted), no globals; text is
// set as textContent, links only to the status page's own origin. Kept small: <= 5 KB compressed.

interface EmbedConfig {
  lang: string;
  dir: 'ltr' | 'rtl';
  /** the company's brand colour (#rrggbb) */
  brand: string;
  /** the languages embed.js?lang= serves */
  langs: string[];
  /** the catalogue's messages of this language */
  t: Record<string, string>;
}

interface EmbedEvent {
  id: string;
  kind: 'incident' | 'maintenance';
  title: string;
  impact: string;
  url: string;
}

interface EmbedDoc {
  page: { name: string; url: string };
  status: string;
  indicator: string;
  ongoing: EmbedEvent[];
}

declare const EMBED: EmbedConfig;

const COLORS: Record<string, string> = {
  operational: '#16a34a',
  degraded: '#d97706',
  down: '#dc2626',
  unknown: '#6b7280',
  maintenance: '#2563eb',
  minor: '#d97706',
  major: '#ea580c',
  critical: '#dc2626',
};
const LIGHT = '--fg:#111827;--mu:#4b5563;--bg:#fff;--ln:#d1d5db';
const DARK = '--fg:#f9fafb;--mu:#d1d5db;--bg:#111827;--ln:#4b5563';
const POSITIONS = ['top', 'bottom', 'top-left', 'top-right', 'bottom-left', 'bottom-right'];
const CSS =
  ':host{all:initial}' +
  '.w{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg)}' +
  '.f{position:fixed;z-index:2147483000;margin:12px;max-width:min(420px,calc(100vw - 24px))}' +
  '.top,.bottom{left:0;right:0;max-width:none}.top,.top-left,.top-right{top:0}.bottom,.bottom-left,.bottom-right{bottom:0}' +
  '.top-left,.bottom-left{left:0}.top-right,.bottom-right{right:0}' +
  '@media (max-width:480px){.f{left:0;right:0;max-width:none}}' +
  'a{color:inherit}a:focus-visible,button:focus-visible{outline:2px solid var(--ac);outline-offset:2px}' +
  '.b{display:inline-flex;align-items:center;gap:.5em;padding:.25em .75em;border:1px solid var(--ac);border-radius:999px;background:var(--bg);text-decoration:none}' +
  '.d{flex:none;width:.6em;height:.6em;border-radius:50%;background:var(--st)}' +
  '.n{display:flex;align-items:flex-start;gap:.75em;padding:.75em 1em;background:var(--bg);border:1px solid var(--ln);border-inline-start:6px solid var(--st);border-radius:8px;box-shadow:0 4px 16px #0003}' +
  '.n div{flex:1;min-width:0;overflow-wrap:anywhere}.k{display:block;color:var(--mu);font-size:12px}.n a{font-weight:600}' +
  'button{flex:none;font:inherit;font-size:18px;line-height:1;color:var(--mu);background:none;border:0;padding:0 .2em;cursor:pointer}';

const t = (key: string, values: Record<string, string | number> = {}): string =>
  (EMBED.t[key] || key).replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));

/** 'and # more' in the language's plural form (the catalogue's ICU plural, its simple cases). */
function more(count: number): string {
  const msg = EMBED.t['banner.more'] || '';
  const pick = (cat: string) => new RegExp(`(?:^|[ ,]) *${cat} \\{([^}]*)\\}`).exec(msg)?.[1];
  const text = pick(`=${count}`) ?? pick(new Intl.PluralRules(EMBED.lang).select(count)) ?? pick('other') ?? '';
  return text.replace('#', String(count));
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
}

/** A link that opens the status page (only its own origin: an http(s) URL of it, else the page). */
function link(href: string, origin: string, cls: string, text: string): HTMLAnchorElement {
  const a = el('a', cls, text);
  let url: URL | null = null;
  try {
    url = new URL(href, origin);
  } catch {}
  a.href = url && url.origin === origin ? url.href : `${origin}/`;
  a.target = '_blank';
  a.rel = 'noopener';
  return a;
}

const dismissedKey = (id: string) => `sw-embed-dismissed:${id}`;
function dismissed(id: string): boolean {
  try {
    return sessionStorage.getItem(dismissedKey(id)) === '1';
  } catch {
    return false;
  }
}
function dismiss(id: string): void {
  try {
    sessionStorage.setItem(dismissedKey(id), '1');
  } catch {}
}

function start(script: HTMLScriptElement): void {
  const data = script.dataset;
  const src = new URL(script.src);
  const origin = src.origin;
  const wanted = data.lang;
  // data-lang names another language than this script's: load that language's script instead.
  if (wanted && wanted !== EMBED.lang && EMBED.langs.includes(wanted) && !src.searchParams.has('lang')) {
    const next = document.createElement('script');
    for (const a of Array.from(script.attributes)) if (a.name.startsWith('data-')) next.setAttribute(a.name, a.value);
    next.async = true;
    next.src = `${origin}/embed.js?lang=${encodeURIComponent(wanted)}`;
    script.after(next);
    return;
  }
  const banner = data.style === 'banner';
  const theme = data.theme === 'light' || data.theme === 'dark' ? data.theme : 'auto';
  const accent = /^#?[0-9a-f]{6}$/i.test(data.accent || '') ? `#${data.accent!.replace('#', '')}` : EMBED.brand;
  const position = POSITIONS.includes(data.position || '') ? data.position! : banner ? 'bottom-right' : '';

  const host = document.createElement('statuswatch-embed');
  const root = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  const vars = (v: string) => `:host{${v};--ac:${accent}}`;
  sheet.replaceSync(
    CSS + (theme === 'auto' ? `${vars(LIGHT)}@media (prefers-color-scheme:dark){${vars(DARK)}}` : vars(theme === 'dark' ? DARK : LIGHT)),
  );
  root.adoptedStyleSheets = [sheet];
  const box = el('div', `w${position ? ` f ${position}` : ''}`);
  box.lang = EMBED.lang;
  box.dir = EMBED.dir;
  root.append(box);
  // Inline where the script stands (a badge), else at the end of the body (fixed, or from <head>).
  if (!position && script.parentElement && script.parentElement !== document.head) script.after(host);
  else if (document.body) document.body.append(host);
  else document.addEventListener('DOMContentLoaded', () => document.body.append(host));

  const draw = (doc: EmbedDoc) => {
    box.replaceChildren();
    if (!banner) {
      const words = t(doc.status === 'unknown' ? 'status.unknown' : `status.${doc.indicator}`);
      const a = link(doc.page.url, origin, 'b', '');
      a.style.setProperty('--st', COLORS[doc.status] || COLORS.unknown);
      a.title = t('badge.title', { name: doc.page.name, status: words });
      a.append(el('span', 'd'), el('span', '', words));
      box.append(a);
      return;
    }
    const shown = doc.ongoing.filter((e) => !dismissed(e.id));
    const first = shown[0];
    if (!first) return;
    const note = el('div', 'n');
    note.setAttribute('role', 'region');
    note.setAttribute('aria-label', t('banner.region'));
    note.style.setProperty('--st', COLORS[first.impact] || COLORS.maintenance);
    const text = el('div', '');
    text.append(el('span', 'k', `${t(`kind.${first.kind}`)} · ${t(`impact.${first.impact}`)}`), link(first.url, origin, '', first.title));
    if (shown.length > 1) text.append(' ', link(doc.page.url, origin, 'k', more(shown.length - 1)));
    const close = el('button', '', '×');
    close.type = 'button';
    close.setAttribute('aria-label', t('banner.dismiss'));
    close.addEventListener('click', () => {
      dismiss(first.id);
      draw(doc);
    });
    note.append(text, close);
    box.append(note);
  };

  let loadedAt = 0;
  const load = () => {
    loadedAt = Date.now();
    fetch(`${origin}/embed/status.json`, { credentials: 'omit' })
      .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
      .then(draw, (why) => {
        box.replaceChildren();
        console.warn('StatusWatch embed: no status to show', why);
      });
  };
  load();
  // A tab the visitor comes back to after a while shows the state of now, not of then.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - loadedAt > 60_000) load();
  });
}

const current = document.currentScript;
if (current instanceof HTMLScriptElement) start(current);
