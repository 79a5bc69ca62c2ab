// A Statuspage page as a monitors-as-code file: components become monitors on the status page,
// component groups its groups, in Statuspage's order. Names are kept, so importing twice finds
// the same objects (the plan matches by name) and changes nothing.
//
// A component is not a check: Statuspage shows whatever status a person (or an automation
// e-mail) set. The nearest thing here is a push monitor, whose status also comes from outside
// (a heartbeat to its URL) rather than from a probe. It is imported PAUSED: a push monitor that
// gets no heartbeat goes down, and an imported page must not turn red (and alert) on its own
// the moment it lands. The user then gives each one a sender, or replaces it with a real check.
import type { CodeFile, MonitorSpec, Placement } from '../../monitors-as-code/model.ts';
import type { Mapped, NotImported } from '../uptime-kuma/map.ts';
import type { ConfirmedSubscriberSpec, PastIncidentSpec } from '../history.ts';
import type { SpComponent, SpData } from './read.ts';

/** A push monitor expects a heartbeat this often once it is resumed (five minutes). */
const PUSH_INTERVAL_SECONDS = 300;

const byPosition = <T extends { position: number }>(xs: T[]) => [...xs].sort((a, b) => a.position - b.position);

export function mapStatuspage(data: SpData): Mapped {
  const notImported: NotImported[] = [];
  const monitors: MonitorSpec[] = [];
  const names = new Set<string>();
  const imported = new Map<string, string>();
  // The components list repeats each group as a component with group: true; its members are in
  // component_groups (or, in older answers, only in each member's group_id).
  const groupRows = data.components.filter((c) => c.group);
  const groups = new Map(data.groups.map((g) => [g.id, g]));
  for (const c of groupRows) if (!groups.has(c.id)) groups.set(c.id, { id: c.id, name: c.name, position: c.position, components: [] });
  for (const c of byPosition(data.components.filter((x) => !x.group))) {
    const skip = (why: string) => notImported.push({ what: 'component', name: c.name, why });
    if (!c.name) {
      skip('no name');
      continue;
    }
    if (names.has(c.name)) {
      skip('another component has the same name (monitors are matched by name; rename one in Statuspage)');
      continue;
    }
    names.add(c.name);
    imported.set(c.id, c.name);
    monitors.push({ name: c.name, type: 'push', interval_seconds: PUSH_INTERVAL_SECONDS, is_public: true, paused: true });
    partials(c, notImported);
  }
  const layout: { name: string; monitors: Placement[] }[] = [];
  const placed = new Set<string>();
  for (const g of byPosition([...groups.values()])) {
    const members = [
      ...g.components,
      ...byPosition(data.components.filter((c) => c.group_id === g.id && !g.components.includes(c.id))).map((c) => c.id),
    ];
    const list = members.flatMap((id) => {
      const name = imported.get(id);
      if (!name || placed.has(name)) return [];
      placed.add(name);
      return [{ monitor: name }];
    });
    if (list.length === 0) notImported.push({ what: 'component group', name: g.name, why: 'none of its components is imported' });
    else if (layout.some((x) => x.name === g.name))
      notImported.push({
        what: 'component group',
        name: g.name,
        why: 'another group has the same name: its components are listed on their own',
      });
    else layout.push({ name: g.name, monitors: list });
  }
  const ungrouped = monitors.filter((m) => !placed.has(m.name)).map((m) => ({ monitor: m.name }));
  const file: CodeFile = { version: 1, monitors, status_page: { ungrouped, groups: layout } };

  const incidents = incidentsOf(data, imported, notImported);
  // Only those who confirmed on Statuspage (its "active" list) consented: the others are listed.
  const subscribers: ConfirmedSubscriberSpec[] = [];
  for (const s of data.subscribers) {
    const skip = (why: string) => notImported.push({ what: 'subscriber', name: s.label, why });
    if (s.state === 'unconfirmed') skip('never confirmed the subscription on Statuspage (no consent to import)');
    else if (s.state === 'quarantined') skip('quarantined on Statuspage (it could not be reached)');
    else if (s.mode !== 'email' || !s.email) skip(`a ${s.mode} subscriber: only e-mail subscribers are carried over`);
    else {
      if (s.components.length > 0)
        notImported.push({
          what: 'subscriber setting',
          name: s.label,
          why: 'subscribed to some components only: imported for every component',
        });
      subscribers.push({ email: s.email, subscribed_at: s.created_at });
    }
  }
  if (data.pageName)
    notImported.push({ what: 'page setting', name: `name: ${data.pageName.slice(0, 60)}`, why: "the page shows your company's name" });
  return { file, notImported, secrets: new Set(), incidents, subscribers };
}

/** What of a component the monitor cannot carry, listed with the monitor still imported. */
function partials(c: SpComponent, notImported: NotImported[]): void {
  const note = (why: string) => notImported.push({ what: 'component setting', name: c.name, why });
  note('imported as a paused push monitor: send heartbeats to its push URL (or replace it with a check), then resume it');
  if (c.description) note('its description: the status page here shows no description per monitor');
  if (c.status !== 'operational')
    note(`its current status "${c.status}": the status here comes from the monitor's own checks (post an incident for an outage)`);
  if (c.only_show_if_degraded) note('"only show if degraded": monitors on the page here are always shown');
}

const UPDATE_STATUSES = new Set(['investigating', 'identified', 'monitoring', 'resolved']);
const IMPACTS: Record<string, PastIncidentSpec['impact']> = { minor: 'minor', major: 'major', critical: 'critical' };
/** What a status page and its feeds cannot carry (see lib/plain-text.ts): dropped from imported text. */
const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]/g;
const clean = (text: string, max: number) => text.replace(UNSAFE, '').trim().slice(0, max);

/** Resolved incidents with their updates, at their own times; the rest listed with why. */
function incidentsOf(data: SpData, imported: Map<string, string>, notImported: NotImported[]): PastIncidentSpec[] {
  const out: PastIncidentSpec[] = [];
  for (const i of data.incidents) {
    const name = `${i.name} (${i.created_at.slice(0, 10)})`;
    const skip = (why: string) => notImported.push({ what: 'incident', name, why });
    if (['scheduled', 'in_progress', 'verifying', 'completed'].includes(i.status)) {
      skip('a scheduled maintenance: plan upcoming maintenance as maintenance windows here');
      continue;
    }
    if (i.status !== 'resolved' && i.status !== 'postmortem') {
      skip(`still "${i.status}" on Statuspage: post it here as a new incident (that notifies your subscribers)`);
      continue;
    }
    const at = (u: { display_at: string | null; created_at: string }) => u.display_at ?? u.created_at;
    const updates = [...i.incident_updates]
      .filter((u) => UPDATE_STATUSES.has(u.status))
      .sort((a, b) => Date.parse(at(a)) - Date.parse(at(b)))
      .map((u) => ({
        status: u.status as PastIncidentSpec['updates'][number]['status'],
        message: clean(u.body, 5000) || u.status,
        at: new Date(at(u)).toISOString(),
      }));
    const startedAt = new Date(i.started_at ?? i.created_at).toISOString();
    const resolvedAt = new Date(i.resolved_at ?? updates.at(-1)?.at ?? i.created_at).toISOString();
    if (!Number.isFinite(Date.parse(startedAt)) || Date.parse(resolvedAt) < Date.parse(startedAt)) {
      skip('no readable start and end');
      continue;
    }
    const impact = IMPACTS[i.impact];
    if (!impact)
      notImported.push({
        what: 'incident setting',
        name,
        why: `impact "${i.impact}": imported as minor (impacts here are minor, major, critical)`,
      });
    const monitors = i.component_ids.flatMap((id) => (imported.has(id) ? [imported.get(id) as string] : []));
    out.push({ title: clean(i.name, 300), impact: impact ?? 'minor', started_at: startedAt, resolved_at: resolvedAt, monitors, updates });
  }
  return out;
}
