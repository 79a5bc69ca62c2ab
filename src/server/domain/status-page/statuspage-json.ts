// Atlassian Statuspage-compatible documents (the public /api/v2/*.json of a status page), so
// existing aggregators and widgets read our pages. Field names and status values follow
// Atlassian's public API; values we do not have are null/false as Statuspage gives them.
import {
  componentStatusOf,
  type ComponentStatus,
  type GroupView,
  type Indicator,
  type IncidentView,
  type MaintenanceView,
  type MonitorView,
  type StatusPageView,
} from '../../../lib/status.ts';
import { toIso } from '../ids.ts';

function incidentStatus(s: string): 'investigating' | 'identified' | 'monitoring' | 'resolved' {
  return s === 'identified' || s === 'monitoring' || s === 'resolved' ? s : 'investigating';
}

function pageOf(view: StatusPageView, url: string) {
  const changes = [...view.monitors.map((m) => Math.max(m.updatedAt, m.lastCheckedAt ?? 0)), ...view.allIncidents.map((i) => i.updatedAt)];
  const latest = changes.length ? Math.max(...changes) : view.generatedAt;
  return { id: view.company.id, name: view.company.name, url, time_zone: 'Etc/UTC', updated_at: toIso(latest) };
}

// A group reads as its worst member (Statuspage's own group status).
const SEVERITY: ComponentStatus[] = ['operational', 'under_maintenance', 'degraded_performance', 'partial_outage', 'major_outage'];

function component(view: StatusPageView, m: MonitorView) {
  return {
    id: m.id,
    name: m.name,
    status: componentStatusOf(m),
    created_at: toIso(m.createdAt),
    updated_at: toIso(m.updatedAt),
    position: positionsOf(view).get(m.id)!,
    description: null,
    showcase: true,
    start_date: new Date(m.createdAt).toISOString().slice(0, 10),
    group_id: m.groupId,
    page_id: view.company.id,
    group: false,
    only_show_if_degraded: false,
  };
}

function groupComponent(view: StatusPageView, g: GroupView) {
  const members = view.monitors.filter((m) => m.groupId === g.id);
  const worst = Math.max(...members.map((m) => SEVERITY.indexOf(componentStatusOf(m))));
  return {
    id: g.id,
    name: g.name,
    status: SEVERITY[worst],
    created_at: toIso(g.createdAt),
    updated_at: toIso(Math.max(g.updatedAt, ...members.map((m) => m.updatedAt))),
    position: positionsOf(view).get(g.id)!,
    description: null,
    showcase: false,
    start_date: null,
    group_id: null,
    page_id: view.company.id,
    group: true,
    only_show_if_degraded: false,
    components: members.map((m) => m.id),
  };
}

const positions = new WeakMap<StatusPageView, Map<string, number>>();

/** 1-based places in page order: the ungrouped monitors, then each group followed by its members. */
function positionsOf(view: StatusPageView): Map<string, number> {
  let p = positions.get(view);
  if (!p) {
    const order = [
      ...view.monitors.filter((m) => m.groupId === null).map((m) => m.id),
      ...view.groups.flatMap((g) => [g.id, ...view.monitors.filter((m) => m.groupId === g.id).map((m) => m.id)]),
    ];
    p = new Map(order.map((id, i) => [id, i + 1]));
    positions.set(view, p);
  }
  return p;
}

/** Every component in page order: groups before their members, as Statuspage lists them. */
function components(view: StatusPageView) {
  return [
    ...view.monitors.filter((m) => m.groupId === null).map((m) => component(view, m)),
    ...view.groups.flatMap((g) => [
      groupComponent(view, g),
      ...view.monitors.filter((m) => m.groupId === g.id).map((m) => component(view, m)),
    ]),
  ];
}

/** The page's own overall state (lib/status.ts overallOf), so the page and its JSON agree. */
export function statusIndicator(view: StatusPageView): { indicator: Indicator; description: string } {
  return { indicator: view.overall.indicator, description: view.overall.text };
}

function incident(view: StatusPageView, i: IncidentView, url: string) {
  const ids = new Set(i.monitors.map((m) => m.id));
  const affected = view.monitors.filter((m) => ids.has(m.id));
  const monitoring = i.updates.find((u) => u.status === 'monitoring');
  return {
    id: i.id,
    name: i.title,
    status: incidentStatus(i.resolvedAt !== null ? 'resolved' : i.status),
    created_at: toIso(i.startedAt),
    updated_at: toIso(i.updatedAt),
    monitoring_at: monitoring ? toIso(monitoring.createdAt) : null,
    resolved_at: i.resolvedAt === null ? null : toIso(i.resolvedAt),
    impact: i.impact,
    shortlink: `${url}/incidents/${i.id}`,
    started_at: toIso(i.startedAt),
    page_id: view.company.id,
    incident_updates: i.updates.map((u) => ({
      id: u.id,
      status: incidentStatus(u.status),
      body: u.message,
      incident_id: i.id,
      created_at: toIso(u.createdAt),
      updated_at: toIso(u.createdAt),
      display_at: toIso(u.createdAt),
      affected_components: null,
      deliver_notifications: true,
      custom_tweet: null,
      tweet_id: null,
    })),
    components: affected.map((m) => component(view, m)),
  };
}

function maintenance(view: StatusPageView, w: MaintenanceView, url: string) {
  const now = view.generatedAt;
  const status = now < w.startsAt ? 'scheduled' : now < w.endsAt ? 'in_progress' : 'completed';
  const ids = new Set(w.monitors.map((m) => m.id));
  const affected = ids.size === 0 ? view.monitors : view.monitors.filter((m) => ids.has(m.id));
  return {
    id: w.id,
    name: w.title,
    status,
    created_at: toIso(w.createdAt),
    // its last edit, or its start or end once reached: when its status last changed
    updated_at: toIso(Math.max(w.updatedAt, ...[w.startsAt, w.endsAt].filter((t) => t <= now))),
    monitoring_at: null,
    resolved_at: status === 'completed' ? toIso(w.endsAt) : null,
    impact: 'maintenance',
    shortlink: `${url}/#maintenance-${w.id}`,
    started_at: toIso(w.startsAt),
    page_id: view.company.id,
    incident_updates: w.description
      ? [
          {
            id: `${w.id}-1`,
            status,
            body: w.description,
            incident_id: w.id,
            created_at: toIso(w.createdAt),
            updated_at: toIso(w.updatedAt),
            display_at: toIso(w.createdAt),
            affected_components: null,
            deliver_notifications: true,
            custom_tweet: null,
            tweet_id: null,
          },
        ]
      : [],
    components: affected.map((m) => component(view, m)),
    scheduled_for: toIso(w.startsAt),
    scheduled_until: toIso(w.endsAt),
  };
}

export type StatuspageDoc =
  | 'summary'
  | 'status'
  | 'components'
  | 'incidents'
  | 'unresolved'
  | 'scheduled-maintenances'
  | 'upcoming-maintenances'
  | 'active-maintenances';

/** One of the Statuspage v2 documents of a page served at `url` (its origin). */
export function statuspageDocument(doc: StatuspageDoc, view: StatusPageView, url: string): Record<string, unknown> {
  const page = pageOf(view, url);
  const unresolved = () => view.activeIncidents.map((i) => incident(view, i, url));
  const upcoming = () => view.maintenance.filter((w) => w.endsAt > view.generatedAt).map((w) => maintenance(view, w, url));
  switch (doc) {
    case 'summary':
      return {
        page,
        components: components(view),
        incidents: unresolved(),
        scheduled_maintenances: upcoming(),
        status: statusIndicator(view),
      };
    case 'status':
      return { page, status: statusIndicator(view) };
    case 'components':
      return { page, components: components(view) };
    case 'incidents':
      return { page, incidents: view.allIncidents.slice(0, 50).map((i) => incident(view, i, url)) };
    case 'unresolved':
      return { page, incidents: unresolved() };
    case 'scheduled-maintenances':
      return { page, scheduled_maintenances: view.maintenance.map((w) => maintenance(view, w, url)) };
    case 'upcoming-maintenances':
      return {
        page,
        scheduled_maintenances: view.maintenance.filter((w) => w.startsAt > view.generatedAt).map((w) => maintenance(view, w, url)),
      };
    case 'active-maintenances':
      return { page, scheduled_maintenances: view.maintenance.filter((w) => w.active).map((w) => maintenance(view, w, url)) };
  }
}
