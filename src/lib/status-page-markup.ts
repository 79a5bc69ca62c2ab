// The parts of the public status page that a check can change, as HTML strings: the overall
// banner (with its "Updated" time) and each list of monitor rows (name, status pill, last check,
// last response time, the 24 hourly blocks and the 90-day bar). StatusPage.astro puts them in
// with set:html, so the same strings are what a full render holds; everything else on the page
// (header, incidents, maintenance, groups, subscribe form, styles, script) is the page's frame.
// When only these parts changed since the last full render, the server splices the new ones
// into that render's HTML instead of rendering again (status-page-splice.ts): a re-render after
// a check costs 2.2 ms of CPU instead of 3.2 for a 20-monitor page (bench:status-page).
import { STATUS_LABEL, formatMs, formatPercent, formatUtc, overallIcon, type MonitorView, type StatusPageView } from './status.ts';
import { escapeAttr, escapeText } from './html-escape.ts';

/** An active incident or a current or coming maintenance naming the monitor, linked to its card. */
export interface RowNotice {
  href: string;
  text: string;
}

/** The overall banner: status, its sentence and when the snapshot was made. */
export function overallMarkup(view: StatusPageView): string {
  const s = view.overall.status;
  return (
    `<section class="overall s-${s}" aria-labelledby="overall-text" data-overall="${s}"><span class="icon" aria-hidden="true">${overallIcon(s)}</span>` +
    `<div><h2 id="overall-text">${escapeText(view.overall.text)}</h2><p>Updated <time datetime="${new Date(view.generatedAt).toISOString()}">${formatUtc(view.generatedAt)}</time></p></div></section>`
  );
}

/** A monitor row's <li>; `level` is the heading level of its name (4 inside a component group). */
export function monitorRowMarkup(m: MonitorView, level: 3 | 4, notices: readonly RowNotice[]): string {
  const checked = m.lastCheckedAt ? ` datetime="${new Date(m.lastCheckedAt).toISOString()}"` : '';
  let out =
    `<li class="monitor" data-monitor="${escapeAttr(m.id)}"><div class="m-head"><h${level} class="m-name">${escapeText(m.name)}</h${level}>` +
    `<span class="pill s-${m.status}" data-status="${m.status}">${STATUS_LABEL[m.status]}</span></div>` +
    `<p class="m-meta"><span>Last checked <time${checked}>${formatUtc(m.lastCheckedAt)}</time></span>` +
    // A group answers nothing itself: its children have the response times.
    (m.children ? '' : `<span>Response time <strong class="rt">${escapeText(formatMs(m.lastResponseTimeMs))}</strong></span>`) +
    '</p>';
  // Checked from several locations, and its company shows them: the latest time from each.
  if (m.locations.length > 0) {
    out += `<p class="m-locs" aria-label="${escapeAttr(`${m.name}: response time by location`)}">`;
    for (const l of m.locations)
      out += `<span class="m-loc${l.status === 'down' ? ' m-loc-down' : ''}">${escapeText(l.name)} <strong>${escapeText(l.status === 'down' ? 'no answer' : formatMs(l.responseTimeMs))}</strong></span>`;
    out += '</p>';
  }
  // A group monitor: its children behind a disclosure (a native <details>: keyboard and screen
  // readers need no script).
  if (m.children && m.children.length > 0) {
    const n = m.children.length;
    out += `<details class="m-children"><summary>${n} component${n === 1 ? '' : 's'} in ${escapeText(m.name)}</summary><ul>`;
    for (const c of m.children)
      out += `<li><span class="c-name">${escapeText(c.name)}</span><span class="pill s-${c.status}" data-status="${c.status}">${STATUS_LABEL[c.status]}</span></li>`;
    out += '</ul></details>';
  }
  if (notices.length > 0) {
    out += '<ul class="m-notices">';
    for (const n of notices) out += `<li><a href="${escapeAttr(n.href)}">${escapeText(n.text)}</a></li>`;
    out += '</ul>';
  }
  const first = new Date(m.daily[0]?.day ?? 0).toISOString().slice(0, 10);
  return (
    out +
    `<ol class="timeline" data-timeline tabindex="0" aria-label="${escapeAttr(`${m.name}: last 24 hours, one block per hour (UTC)`)}">${m.markup.timeline}</ol>` +
    '<div class="axis"><span>24 hours ago</span><span>Now</span></div>' +
    `<ol class="daily" aria-hidden="true" data-daily data-first="${first}" data-uptime="${escapeAttr(m.markup.dailyData)}">${m.markup.daily}</ol>` +
    `<div class="axis"><span>90 days ago</span><span class="uptime">${escapeText(formatPercent(m.uptime90d))} uptime</span><span>Today</span></div></li>`
  );
}

/** Current and coming maintenance (the page lists those; a window that ended is left out). */
export const shownMaintenance = (view: StatusPageView) => view.maintenance.filter((w) => w.endsAt > view.generatedAt);

/** The active incidents and the shown maintenance that name a monitor, linked to their cards. */
function noticesOf(view: StatusPageView, maintenance: StatusPageView['maintenance'], id: string): RowNotice[] {
  const names = (list: Array<{ id: string }>) => list.some((x) => x.id === id);
  return [
    ...view.activeIncidents.filter((i) => names(i.monitors)).map((i) => ({ href: `#incident-${i.id}`, text: `Incident: ${i.title}` })),
    ...maintenance
      .filter((w) => names(w.monitors))
      .map((w) => ({
        href: `#maintenance-${w.id}`,
        text: `${w.active ? 'Maintenance in progress' : 'Maintenance scheduled'}: ${w.title}`,
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
type Made = { productName: string; mainSiteUrl: string; parts: StatusPageParts };

/**
 * The changeable parts of a page and the frame around them, made once per snapshot: the page's
 * render and the server's splice base take them from the same view.
 */
export function statusPageParts(view: StatusPageView, productName: string, mainSiteUrl: string): StatusPageParts {
  const m = (view as unknown as Record<symbol, Made | undefined>)[MADE];
  if (m && m.productName === productName && m.mainSiteUrl === mainSiteUrl) return m.parts;
  const parts = makeParts(view, productName, mainSiteUrl);
  Object.defineProperty(view, MADE, { value: { productName, mainSiteUrl, parts }, configurable: true, enumerable: false, writable: true });
  return parts;
}

function makeParts(view: StatusPageView, productName: string, mainSiteUrl: string): StatusPageParts {
  const maintenance = shownMaintenance(view);
  const rows = (groupId: string | null, level: 3 | 4) =>
    view.monitors
      .filter((m) => m.groupId === groupId)
      .map((m) => monitorRowMarkup(m, level, noticesOf(view, maintenance, m.id)))
      .join('');
  const groups = view.groups.map((g) => ({ id: g.id, name: g.name, rows: rows(g.id, 4) }));
  const ungrouped = rows(null, 3);
  const frame = JSON.stringify([
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
  return { frame, overall: overallMarkup(view), ungrouped, groups };
}
