// Groups and dependencies inside the result writer's transaction (issue 28), kept out of
// result-writer.ts so it only asks three questions:
// - held(m): is one of the monitor's parents down (confirmed, or failing towards it)? Then the
//   monitor's failures are recorded but open no incident and send no alert of their own; once
//   the parent is back, the next failing result opens the monitor's incident as usual (the state
//   machine opens one for any down monitor without).
// - affected(m): the dependents failing with it, which its own incident names ("Database is down:
//   12 dependent monitors unreachable").
// - changed(ids): groups containing monitors whose status changed are due at once, so a group's
//   status follows its children's within a tick instead of its interval.
import type { DbScope } from '../db/scope.ts';
import type { MonitorRow } from '../db/repositories/monitors-repo.ts';
import { monitorLinksRepo } from '../db/repositories/monitor-links-repo.ts';
import { parseConfig } from './kinds/config.ts';
import type { Dependents } from './ports.ts';

/** A monitor in the batch or its stored state: what matters to its dependents. */
type StateOf = Pick<MonitorRow, 'status' | 'pending_status' | 'is_paused' | 'archived_at'>;

const failing = (m: StateOf) => !m.is_paused && m.archived_at === null && (m.status === 'down' || m.pending_status === 'down');

function ids(text: string | null): string[] {
  if (!text) return [];
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** `batch`: the batch's monitors, whose state the writer updates in memory as it goes. */
export function dependencySteps(tx: DbScope, batch: ReadonlyMap<string, MonitorRow>) {
  const links = monitorLinksRepo(tx);
  return {
    async held(m: Pick<MonitorRow, 'company_id' | 'parents'>): Promise<boolean> {
      const parents = ids(m.parents);
      if (parents.length === 0) return false;
      if (parents.some((p) => batch.has(p) && failing(batch.get(p)!))) return true;
      const stored = await links.byIds(
        m.company_id,
        parents.filter((p) => !batch.has(p)),
      );
      return stored.some(failing);
    },
    async affected(m: Pick<MonitorRow, 'id' | 'company_id'>): Promise<Dependents | undefined> {
      const rows = await links.dependentsOf(m.company_id, m.id);
      const down = rows
        .filter((d) => ids(d.parents).includes(m.id))
        .map((d) => ({ id: d.id, name: d.name, state: (batch.get(d.id) ?? d) as StateOf }))
        .filter((d) => failing(d.state));
      return down.length ? { count: down.length, ids: down.map((d) => d.id), names: down.map((d) => d.name) } : undefined;
    },
    async changed(monitors: Array<Pick<MonitorRow, 'id' | 'company_id'>>, now: number): Promise<void> {
      if (monitors.length === 0) return;
      const changedIds = new Set(monitors.map((m) => m.id));
      const groups = await links.groupsOf([...new Set(monitors.map((m) => m.company_id))]);
      const due = groups.filter((g) => {
        const children = (parseConfig(g.config) as { children?: unknown }).children;
        return Array.isArray(children) && children.some((c) => changedIds.has(c as string));
      });
      await links.dueBy(
        due.map((g) => g.id),
        now,
      );
    },
  };
}
