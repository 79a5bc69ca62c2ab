// RSS 2.0 and Atom feeds of a company's public incidents (and their updates), drawn by the
// `feed` package, which escapes every text it writes. Links and ids come from configuration
// (public-links.ts), so an entry keeps its id whatever host the feed was read through.
import { Feed } from 'feed';
import type { StatusPageView } from '../../../lib/status.ts';
import { formatUtc } from '../../../lib/status.ts';
import { xmlSafe } from './xml-text.ts';

/** The feed package writes titles and descriptions as HTML (CDATA, type="html"): escape tenant text. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function incidentFeed(view: StatusPageView, origin: string, productName: string): Feed {
  const latest = view.allIncidents.reduce((t, i) => Math.max(t, i.updatedAt), 0);
  const feed = new Feed({
    id: `${origin}/`,
    title: `${view.company.name} Status - Incident History`,
    description: `Incidents affecting ${view.company.name}. Current status: ${view.overall.text}`,
    link: `${origin}/`,
    language: 'en',
    updated: new Date(latest || view.generatedAt),
    generator: productName,
    copyright: view.company.name,
    // Atom requires an author for the feed (or for every entry): the company speaks on its page.
    author: { name: view.company.name, link: `${origin}/` },
    feedLinks: { rss: `${origin}/history.rss`, atom: `${origin}/history.atom` },
  });
  for (const i of view.allIncidents) {
    const updates = i.updates.length
      ? i.updates
          .map((u) => `<p><strong>${escapeHtml(u.status)}</strong> (${formatUtc(u.createdAt)}): ${escapeHtml(u.message)}</p>`)
          .join('')
      : `<p><strong>${escapeHtml(i.status)}</strong> (${formatUtc(i.startedAt)})</p>`;
    const state = `${i.resolvedAt === null ? 'Ongoing' : 'Resolved'}${i.monitors.length ? ` · ${escapeHtml(i.monitors.map((m) => m.name).join(', '))}` : ''}`;
    feed.addItem({
      id: `${origin}/#incident-${i.id}`,
      title: escapeHtml(i.title),
      link: `${origin}/incidents/${i.id}`,
      date: new Date(i.updatedAt),
      published: new Date(i.startedAt),
      description: `<p>${state}</p>${updates}`,
    });
  }
  return feed;
}

/** The feed as RSS 2.0 or Atom text, without the characters XML does not allow. */
export function incidentFeedText(view: StatusPageView, origin: string, productName: string, format: 'rss' | 'atom'): string {
  const feed = incidentFeed(view, origin, productName);
  return xmlSafe(format === 'rss' ? feed.rss2() : feed.atom1());
}
