// The snippets the "Embed on your site" card offers (docs/features/embeds.md): the script tag,
// the iframes and the CSP sources, for the page's public origin and the options chosen. Pure.
export type EmbedStyle = 'badge' | 'banner';
export type EmbedThemeChoice = 'auto' | 'light' | 'dark';
export type BannerPosition = 'bottom-right' | 'bottom-left' | 'top' | 'bottom';

export interface EmbedChoice {
  style: EmbedStyle;
  theme: EmbedThemeChoice;
  /** '' for the visitor's language */
  lang: string;
  position: BannerPosition;
  /** '' for the brand colour, else #rrggbb */
  accent: string;
}

export const DEFAULT_EMBED_CHOICE: EmbedChoice = { style: 'badge', theme: 'auto', lang: '', position: 'bottom-right', accent: '' };

export const isAccent = (v: string) => /^#[0-9a-fA-F]{6}$/.test(v);

/** The page's origin from its public URL ('https://acme.example.com/' -> 'https://acme.example.com'). */
export function originOf(pageUrl: string): string {
  return new URL(pageUrl).origin;
}

/** `<script …>` with only the attributes that differ from the defaults. */
export function scriptSnippet(origin: string, c: EmbedChoice): string {
  const attrs = [`src="${origin}/embed.js"`, 'async'];
  if (c.style === 'banner') attrs.push('data-style="banner"');
  if (c.theme !== 'auto') attrs.push(`data-theme="${c.theme}"`);
  if (c.style === 'banner' && c.position !== 'bottom-right') attrs.push(`data-position="${c.position}"`);
  if (c.lang) attrs.push(`data-lang="${c.lang}"`);
  if (isAccent(c.accent)) attrs.push(`data-accent="${c.accent.toLowerCase()}"`);
  return `<script ${attrs.join(' ')}></script>`;
}

/** The frame's URL: its query says theme, language and accent (a '#' must not start a fragment). */
export function frameUrl(origin: string, c: EmbedChoice): string {
  const q = new URLSearchParams();
  if (c.theme !== 'auto') q.set('theme', c.theme);
  if (c.lang) q.set('lang', c.lang);
  if (isAccent(c.accent)) q.set('accent', c.accent.slice(1).toLowerCase());
  const query = q.toString();
  return `${origin}/embed/${c.style}${query ? `?${query}` : ''}`;
}

export function frameSnippet(origin: string, c: EmbedChoice, title: string): string {
  const [w, h] = c.style === 'badge' ? [260, 36] : [480, 90];
  return `<iframe src="${frameUrl(origin, c).replace(/&/g, '&amp;')}" title="${title.replace(/"/g, '&quot;')}" width="${w}" height="${h}" style="border:0"></iframe>`;
}

/** The sources a site's Content-Security-Policy needs (script and fetch, and the frame). */
export function cspSnippet(origin: string): string {
  return [`script-src ${origin}`, `connect-src ${origin}`, `frame-src ${origin}`].join('\n');
}
