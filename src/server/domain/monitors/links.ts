// The links a monitor names (issue 28): a group's children and any monitor's parents must be
// monitors of its own company, never itself, and form no cycle (a group containing itself or a
// group that contains it; a monitor depending, through its parents, on itself). An id that has
// gone since it was saved (the monitor was deleted) is dropped; a new unknown id is refused.
import { monitorLinksRepo, type LinkedMonitor } from '../../db/repositories/monitor-links-repo.ts';
import type { DbScope } from '../../db/scope.ts';
import { parseConfig } from '../../engine/kinds/config.ts';
import { DomainError } from '../errors.ts';

/** The stored JSON array of ids (monitors.parents, a group's children), [] when unset or unreadable. */
export function idList(v: unknown): string[] {
  const list = typeof v === 'string' ? safeParse(v) : v;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A group's children: only groups have `children` in their config. */
export const configChildren = (config: object): string[] | null =>
  'children' in config ? idList((config as { children?: unknown }).children) : null;

const childrenOf = (m: Pick<LinkedMonitor, 'config'> | undefined): string[] => (m ? (configChildren(parseConfig(m.config)) ?? []) : []);

/** Does `from` reach `target` along `next`? */
function reaches(from: readonly string[], target: string, next: (id: string) => readonly string[]): boolean {
  const seen = new Set<string>();
  const stack = [...from];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === target) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...next(id));
  }
  return false;
}

/**
 * Checks the children (groups) and parents of monitor `selfId` (null: being created) against its
 * company's monitors; answers them without ids of monitors deleted since they were saved.
 */
export async function checkLinks(
  db: DbScope,
  companyId: string,
  selfId: string | null,
  next: { children: string[] | null; parents: string[] },
  before: { children: string[]; parents: string[] },
): Promise<{ children: string[] | null; parents: string[] }> {
  if (!next.children?.length && next.parents.length === 0) return next;
  const all = new Map((await monitorLinksRepo(db).ofCompany(companyId)).map((m) => [m.id, m]));
  const keep = (ids: string[], was: string[], field: string, what: string): string[] => {
    const unknown = ids.filter((id) => !all.has(id) && !was.includes(id));
    if (unknown.length) throw invalid(field, `${what} must be monitors of this company (unknown: ${unknown.slice(0, 3).join(', ')})`);
    if (selfId && ids.includes(selfId)) throw invalid(field, `A monitor cannot be its own ${what === 'Children' ? 'child' : 'parent'}`);
    return ids.filter((id) => all.has(id));
  };
  const children = next.children === null ? null : keep(next.children, before.children, 'children', 'Children');
  const parents = keep(next.parents, before.parents, 'parents', 'Parents');
  if (selfId && children?.length) {
    const kids = (id: string) => (id === selfId ? children : childrenOf(all.get(id)));
    if (reaches(children, selfId, kids)) throw invalid('children', 'A group cannot contain itself or a group that contains it');
  }
  if (selfId && parents.length) {
    const ups = (id: string) => (id === selfId ? parents : idList(all.get(id)?.parents ?? null));
    if (reaches(parents, selfId, ups))
      throw invalid('parents', 'These parents depend on this monitor already: dependencies cannot form a cycle');
  }
  return { children, parents };
}

const invalid = (field: string, text: string) => new DomainError('validation', text, { fields: { [field]: text } });
