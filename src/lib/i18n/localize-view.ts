// The company's own texts of a status page in the reader's language: each component's and group's
// name, each incident's title, update texts and affected components, each maintenance window's
// components and the response-time charts' names, through textIn (the translation of `locale` when the company wrote one, else the text
// as written). The page's data is built once per snapshot for every language; this is applied per
// rendering, so cached pages of two languages never share these texts. Pure.
import type { AffectedMonitor, IncidentView, MonitorView, StatusPageView } from '../status.ts';
import { textIn } from './company-text.ts';

function affected(monitors: AffectedMonitor[], locale: string): AffectedMonitor[] {
  return monitors.map((m) => (m.nameTranslations ? { ...m, name: textIn(locale, m.name, m.nameTranslations) } : m));
}

/** An incident's title, updates and affected components in `locale`. */
export function localizeIncident(i: IncidentView, locale: string): IncidentView {
  return {
    ...i,
    title: textIn(locale, i.title, i.titleTranslations),
    monitors: affected(i.monitors, locale),
    updates: i.updates.map((u) => (u.messageTranslations ? { ...u, message: textIn(locale, u.message, u.messageTranslations) } : u)),
  };
}

/** The whole page's company texts in `locale`. */
export function localizeStatusView(view: StatusPageView, locale: string): StatusPageView {
  const nameOf = new Map(view.monitors.map((m) => [m.id, textIn(locale, m.name, m.nameTranslations)]));
  const monitor = (m: MonitorView): MonitorView => ({
    ...m,
    name: nameOf.get(m.id) ?? m.name,
    ...(m.children ? { children: m.children.map((c) => ({ ...c, name: nameOf.get(c.id) ?? c.name })) } : {}),
  });
  const incident = (i: IncidentView) => localizeIncident(i, locale);
  return {
    ...view,
    monitors: view.monitors.map(monitor),
    groups: view.groups.map((g) => ({ ...g, name: textIn(locale, g.name, g.nameTranslations) })),
    activeIncidents: view.activeIncidents.map(incident),
    recentIncidents: view.recentIncidents.map(incident),
    allIncidents: view.allIncidents.map(incident),
    maintenance: view.maintenance.map((w) => ({ ...w, monitors: affected(w.monitors, locale) })),
    ...(view.panels
      ? { panels: { ...view.panels, charts: view.panels.charts.map((c) => ({ ...c, name: nameOf.get(c.monitorId) ?? c.name })) } }
      : {}),
  };
}
