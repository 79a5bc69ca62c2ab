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

  for (const i of data.incidents)
    notImported.push({
      what: 'incident',
      name: `${i.name} (${i.created_at.slice(0, 10)})`,
      why: 'past incidents are not imported by this version: its history stays on Statuspage',
    });
  for (const s of data.subscribers) {
    const why =
      s.state === 'unconfirmed'
        ? 'never confirmed the subscription on Statuspage (no consent to import)'
        : s.state === 'quarantined'
          ? 'quarantined on Statuspage (it could not be reached)'
          : s.mode !== 'email'
            ? `a ${s.mode} subscriber: only e-mail subscribers are carried over`
            : 'subscribers are not imported by this version: ask them to subscribe again on the new page';
    notImported.push({ what: 'subscriber', name: s.label, why });
  }
  if (data.pageName)
    notImported.push({ what: 'page setting', name: `name: ${data.pageName.slice(0, 60)}`, why: "the page shows your company's name" });
  return { file, notImported, secrets: new Set() };
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
