// Public verbs of the embeds (issue 32): the status document, the script and the frames of a
// company's page, all made from the page's snapshot (cache.ts), so an embed costs no query of
// its own and says what the page says. A private page's embeds are refused before these run
// (http/page-access-guard.ts), like its other public documents.
import { createHash } from 'node:crypto';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { directionOf, negotiateLocale, PUBLIC_LOCALES, type PublicLocale } from '../../../lib/i18n/index.ts';
import { EMBED_AREA } from '../../../lib/i18n/messages/embed/index.ts';
import { embedStatus, type EmbedStatus } from '../../../lib/embed/status.ts';
import { embedAccent, embedTheme } from '../../../lib/embed/theme.ts';
import type { StatusPageView } from '../../../lib/status.ts';
import { lookupStatusPage, STATUS_PAGE_NOT_FOUND, tenantOfHost } from './service.ts';
import { publicTenantOrigin } from './public-links.ts';
import { embedFrame, type EmbedFrame, type EmbedFrameKind } from './embed-frames.ts';
import { EMBED_CLIENT } from './embed-client.gen.ts';

/**
 * The language of an embed: `lang` (the URL's, or data-lang) when it is one of ours, else the
 * visitor's Accept-Language among the twelve, else English. `explicit` says whether the URL
 * chose it (then the answer does not vary with Accept-Language).
 */
export function embedLocale(lang: string | null, acceptLanguage: string | undefined): { locale: PublicLocale; explicit: boolean } {
  const explicit = lang !== null && (PUBLIC_LOCALES as readonly string[]).includes(lang);
  return { locale: negotiateLocale({ explicit: lang, acceptLanguage, offered: PUBLIC_LOCALES, fallback: 'en' }), explicit };
}

async function snapshotOf(ctx: Ctx): Promise<StatusPageView> {
  const subdomain = tenantOfHost(ctx);
  let found;
  try {
    found = await lookupStatusPage(ctx.services, subdomain);
  } catch {
    throw new DomainError('unavailable', 'Failed to load status page');
  }
  if (found.kind !== 'ok') throw new DomainError('not_found', STATUS_PAGE_NOT_FOUND);
  return found.view;
}

const statusOf = (ctx: Ctx, view: StatusPageView): EmbedStatus =>
  embedStatus(view, publicTenantOrigin(ctx.services.config, view.company.subdomain));

/** /embed/status.json: the page's state and what is going on now. */
export async function getEmbedStatus(ctx: Ctx): Promise<{ view: StatusPageView; body: EmbedStatus }> {
  const view = await snapshotOf(ctx);
  return { view, body: statusOf(ctx, view) };
}

/** The client's version: a new build of embed.js is a new script for every company. */
const CLIENT_HASH = createHash('sha256').update(EMBED_CLIENT).digest('base64url').slice(0, 12);

/** The text of embed.js for a language and brand colour (what the route serves, the benchmark measures). */
export function embedScriptText(locale: PublicLocale, brand: string): string {
  const config = { lang: locale, dir: directionOf(locale), brand, langs: PUBLIC_LOCALES, t: EMBED_AREA.messages[locale] };
  // '<' escaped: the text can never close a script element it is pasted into.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `(function(EMBED){${EMBED_CLIENT}})(${json});\n`;
}

/**
 * /embed.js in one language: the client wrapped with what it needs of the company (its brand
 * colour) and of the language (its words). Its ETag changes with those only, not with every
 * snapshot: the script stays cached while the status changes.
 */
export async function getEmbedScript(ctx: Ctx, locale: PublicLocale): Promise<{ view: StatusPageView; etag: string; body: () => string }> {
  const view = await snapshotOf(ctx);
  const brand = view.company.primaryColor;
  const etag = `"ej-${createHash('sha256').update(`${CLIENT_HASH}|${locale}|${brand}`).digest('base64url').slice(0, 22)}"`;
  const body = () => embedScriptText(locale, brand);
  return { view, etag, body };
}

/** /embed/badge and /embed/banner: the frame in a language and look. */
export async function getEmbedFrame(
  ctx: Ctx,
  kind: EmbedFrameKind,
  locale: PublicLocale,
  options: { theme: string | null; accent: string | null },
): Promise<{ view: StatusPageView; key: string; frame: () => EmbedFrame }> {
  const view = await snapshotOf(ctx);
  const theme = embedTheme(options.theme);
  const accent = embedAccent(options.accent, view.company.primaryColor);
  const key = `${kind}|${locale}|${theme}|${accent}`;
  return { view, key, frame: () => embedFrame(kind, statusOf(ctx, view), EMBED_AREA.translator(locale), { theme, accent }) };
}
