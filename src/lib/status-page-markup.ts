// The parts of the public status page that a check can change, as HTML strings: the overall
// banner (with its "Updated" time) and each list of monitor rows (name, status pill, last check,
// last response time, the 24 hourly blocks and the 90-day bar). StatusPage.astro puts them in
// with set:html, so the same strings are what a full render holds; everything else on the page
// (header, incidents, maintenance, groups, subscribe form, styles, script) is the page's frame.
// When only these parts changed since the last full render, the server splices the new ones
// into that render's HTML instead of rendering again (status-page-splice.ts): a re-render after
// a check costs 2.2 ms of CPU instead of 3.2 for a 20-monitor page (bench:status-page).
// Every word comes from the public catalogue in the visitor's language (PageText of the page's
// variant); the plain variant (English, UTC) reads exactly as before the pages were translated.
import { overallIcon, type MonitorView, type Overall, type Status, type StatusPageView, type TimelineBlockView } from './status.ts';
import { escapeAttr, escapeText } from './html-escape.ts';
import { pageText, PLAIN_VARIANT, withChoice, type PageText, type PageVariant } from './page-locale.ts';
import { displayHttpCode, HOUR_MS } from './timeline.ts';
import type { PublicKey } from './i18n/messages/public/index.ts';

/** The catalogue key of a page's headline. */
export function overallKey(o: Overall): PublicKey {
  if (o.status === 'unknown' && o.indicator === 'none') return o.text === 'Status Unknown' ? 'overall.unknown' : 'overall.someUnknown';
  return `overall.${o.indicator}` as PublicKey;
}

export const statusWord = (tx: PageText, s: Status): string => tx.t(`status.${s}` as PublicKey);

/** A timeline block's text (its aria-label and tooltip) in the variant's language and zone. */
export function blockText(tx: PageText, b: Pick<TimelineBlockView, 'start' | 'status' | 'httpCode'>): string {
  const code = displayHttpCode(b.status, b.httpCode);
  return tx.t('block.tooltip', {
    from: tx.hour(b.start),
    to: tx.hour(b.start + HOUR_MS),
    zone: tx.zoneName,
    status: statusWord(tx, b.status),
    code: code === null ? tx.t('block.noCode') : String(code),
  });
}

/** The timeline's <li> items in a variant (the plain variant's are made with the snapshot). */
function timelineOf(m: MonitorView, tx: PageText, variant: PageVariant): string {
  if (variant.locale === 'en' && variant.timeZone === 'UTC') return m.markup.timeline;
  let out = '';
  for (const b of m.timeline) out += `<li class="s-${b.status}" aria-label="${escapeAttr(blockText(tx, b))}"></li>`;
  return out;
}

/** An active incident or a current or coming maintenance naming the monitor, linked to its card. */
export interface RowNotice {
  href: string;
  text: string;
}

/** The overall banner: status, its sentence and when the snapshot was made. */
export function overallMarkup(view: StatusPageView, tx: PageText = pageText(PLAIN_VARIANT)): string {
  const s = view.overall.status;
  return (
    `<section class="overall s-${s}" aria-labelledby="overall-text" data-overall="${s}"><span class="icon" aria-hidden="true">${overallIcon(s)}</span>` +
    `<div><h2 id="overall-text">${escapeText(tx.t(overallKey(view.overall)))}</h2><p>${escapeText(tx.t('overall.updated'))} <time datetime="${new Date(view.generatedAt).toISOString()}">${escapeText(tx.dateTime(view.generatedAt))}</time></p></div></section>`
  );
}

/** A monitor row's <li>; `level` is the heading level of its name (4 inside a component group). */
export function monitorRowMarkup(
  m: MonitorView,
  level: 3 | 4,
  notices: readonly RowNotice[],
  tx: PageText = pageText(PLAIN_VARIANT),
  variant: PageVariant = PLAIN_VARIANT,
): string {
  const checked = m.lastCheckedAt ? ` datetime="${new Date(m.lastCheckedAt).toISOString()}"` : '';
  let out =
    `<li class="monitor" data-monitor="${escapeAttr(m.id)}"><div class="m-head"><h${level} class="m-name">${escapeText(m.name)}</h${level}>` +
    `<span class="pill s-${m.status}" data-status="${m.status}">${escapeText(statusWord(tx, m.status))}</span></div>` +
    `<p class="m-meta"><span>${escapeText(tx.t('row.lastChecked'))} <time${checked}>${escapeText(tx.dateTime(m.lastCheckedAt))}</time></span>` +
    // A group answers nothing itself: its children have the response times.
    (m.children
      ? ''
      : `<span>${escapeText(tx.t('row.responseTime'))} <strong class="rt">${escapeText(tx.ms(m.lastResponseTimeMs))}</strong></span>`) +
    '</p>';
  // Checked from several locations, and its company shows them: the latest time from each.
  if (m.locations.length > 0) {
    out += `<p class="m-locs" aria-label="${escapeAttr(tx.t('row.byLocation', { name: m.name }))}">`;
    for (const l of m.locations)
      out += `<span class="m-loc${l.status === 'down' ? ' m-loc-down' : ''}">${escapeText(l.name)} <strong>${escapeText(l.status === 'down' ? tx.t('row.noAnswer') : tx.ms(l.responseTimeMs))}</strong></span>`;
    out += '</p>';
  }
  // A group monitor: its children behind a disclosure (a native <details>: keyboard and screen
  // readers need no script).
  if (m.children && m.children.length > 0) {
    out += `<details class="m-children"><summary>${escapeText(tx.t('row.children', { count: m.children.length, name: m.name }))}</summary><ul>`;
    for (const c of m.children)
      out += `<li><span class="c-name">${escapeText(c.name)}</span><span class="pill s-${c.status}" data-status="${c.status}">${escapeText(statusWord(tx, c.status))}</span></li>`;
    out += '</ul></details>';
  }
  if (notices.length > 0) {
    out += '<ul class="m-notices">';
    for (const n of notices) out += `<li><a href="${escapeAttr(withChoice(n.href, variant))}">${escapeText(n.text)}</a></li>`;
    out += '</ul>';
  }
  const first = new Date(m.daily[0]?.day ?? 0).toISOString().slice(0, 10);
  return (
    out +
    `<ol class="timeline" data-timeline tabindex="0" aria-label="${escapeAttr(tx.t('row.timelineLabel', { name: m.name, hours: m.timeline.length || 24, zone: tx.zoneName }))}">${timelineOf(m, tx, variant)}</ol>` +
    `<div class="axis"><span>${escapeText(tx.t('row.hoursAgo', { hours: 24 }))}</span><span>${escapeText(tx.t('row.now'))}</span></div>` +
    `<ol class="daily" aria-hidden="true" data-daily data-first="${first}" data-uptime="${escapeAttr(m.markup.dailyData)}">${m.markup.daily}</ol>` +
    `<div class="axis"><span>${escapeText(tx.t('row.daysAgo', { days: 90 }))}</span><span class="uptime">${escapeText(tx.t('row.uptime', { percent: tx.percent(m.uptime90d) }))}</span><span>${escapeText(tx.t('row.today'))}</span></div></li>`
  );
}

/** Current and coming maintenance (the page lists those; a window that ended is left out). */
export const shownMaintenance = (view: StatusPageView) => view.maintenance.filter((w) => w.endsAt > view.generatedAt);

/** The active incidents and the shown maintenance that name a monitor, linked to their cards. */
function noticesOf(view: StatusPageView, maintenance: StatusPageView['maintenance'], id: string, tx: PageText): RowNotice[] {
  const names = (list: Array<{ id: string }>) => list.some((x) => x.id === id);
  return [
    ...view.activeIncidents
      .filter((i) => names(i.monitors))
      .map((i) => ({ href: `#incident-${i.id}`, text: tx.t('row.incident', { title: i.title }) })),
    ...maintenance
      .filter((w) => names(w.monitors))
      .map((w) => ({
        href: `#maintenance-${w.id}`,
        text: tx.t(w.active ? 'row.maintenanceActive' : 'row.maintenanceScheduled', { title: w.title }),
      })),
  ];
}

export interface StatusPageParts {
  /** everything else the page shows, as one string: equal frames mean equal pages but for the parts */
  frame: string;
  overall: string;
  /** the rows of the monitors without a group, then of each group in page order ('' for none) */
  ungrouped: string;
  groups: Array<{ id: string; name: string; rows: string }>;
}

/**
 * Where a view keeps its parts. A registered symbol, not a module's WeakMap: the built pages
 * bundle their own copy of this module, and the page's render and the server's splice base
 * must share one making per snapshot. Not enumerable, so copies and JSON leave it out.
 */
const MADE = Symbol.for('statuswatch.statusPageParts');
/** per variant key ('' the plain one): a page offered in several languages is made once per language */
type Made = { productName: string; mainSiteUrl: string; parts: Map<string, StatusPageParts> };

/**
 * The changeable parts of a page and the frame around them, made once per snapshot: the page's
 * render and the server's splice base take them from the same view.
 */
export function statusPageParts(
  view: StatusPageView,
  productName: string,
  mainSiteUrl: string,
  variant: PageVariant = PLAIN_VARIANT,
): StatusPageParts {
  let m = (view as unknown as Record<symbol, Made | undefined>)[MADE];
  if (!m || m.productName !== productName || m.mainSiteUrl !== mainSiteUrl) {
    m = { productName, mainSiteUrl, parts: new Map() };
    Object.defineProperty(view, MADE, { value: m, configurable: true, enumerable: false, writable: true });
  }
  const key = variant.key;
  let parts = m.parts.get(key);
  if (!parts) {
    parts = makeParts(view, productName, mainSiteUrl, variant);
    m.parts.set(key, parts);
  }
  return parts;
}

function makeParts(view: StatusPageView, productName: string, mainSiteUrl: string, variant: PageVariant): StatusPageParts {
  const tx = pageText(variant);
  const maintenance = shownMaintenance(view);
  const rows = (groupId: string | null, level: 3 | 4) =>
    view.monitors
      .filter((m) => m.groupId === groupId)
      .map((m) => monitorRowMarkup(m, level, noticesOf(view, maintenance, m.id, tx), tx, variant))
      .join('');
  const groups = view.groups.map((g) => ({ id: g.id, name: g.name, rows: rows(g.id, 4) }));
  const ungrouped = rows(null, 3);
  const frame = JSON.stringify([
    variant.key,
    view.languages,
    productName,
    mainSiteUrl,
    view.company,
    view.subscribe,
    view.monitors.length,
    ungrouped === '',
    groups.map((g) => [g.id, g.name, g.rows === '']),
    view.activeIncidents,
    view.recentIncidents,
    maintenance.map((w) => [w, w.endsAt <= view.generatedAt]),
    view.panels?.key,
  ]);
  return { frame, overall: overallMarkup(view, tx), ungrouped, groups };
}
