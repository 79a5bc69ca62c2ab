// The status page layout being edited: sections (the monitors listed on their own, then each
// component group) holding monitors in page order. Pure: every edit returns a new layout, and
// the names visitors will read are worked out the way the server does (lib/public-name.ts).
import type { components } from '../../../../api/schema.d.ts';
import { looksLikeHost, publicNameOf } from '../../../../lib/public-name.ts';
import { t } from '../../i18n.ts';

type S = components['schemas'];
export type Settings = S['StatusPageSettings'];
export type LayoutInput = S['StatusPageLayoutInput'];

export interface DraftMonitor {
  id: string;
  name: string;
  target: string | null;
  isPublic: boolean;
  publicName: string;
  /** the page shows its response time from each location */
  showLocations: boolean;
  /** the public name per language (absent: not read from the server, left unchanged on save) */
  publicNameTranslations?: Record<string, string>;
  /** the page draws its response-time chart (issue 32) */
  showResponseChart: boolean;
}

export interface Section {
  /** stable key for lists and focus: 'ungrouped', a group's id, or 'new-N' */
  key: string;
  /** the saved group's id; absent for the ungrouped section and new groups */
  groupId?: string;
  name: string;
  monitors: DraftMonitor[];
  /** the group's name per language (absent: unchanged on save) */
  nameTranslations?: Record<string, string>;
}

/** The first section is always the ungrouped one; groups follow in page order. */
export type Layout = Section[];

export const UNGROUPED = 'ungrouped';

export function layoutOf(s: Settings): Layout {
  const draft = (m: Settings['monitors'][number]): DraftMonitor => ({
    id: m.id,
    name: m.name,
    target: m.target,
    isPublic: m.is_public,
    publicName: m.public_name ?? '',
    showLocations: m.show_locations,
    ...(m.public_name_translations ? { publicNameTranslations: m.public_name_translations } : {}),
    showResponseChart: m.show_response_chart,
  });
  const known = new Set(s.groups.map((g) => g.id));
  return [
    { key: UNGROUPED, name: '', monitors: s.monitors.filter((m) => m.group_id === null || !known.has(m.group_id)).map(draft) },
    ...s.groups.map((g) => ({
      key: g.id,
      groupId: g.id,
      name: g.name,
      monitors: s.monitors.filter((m) => m.group_id === g.id).map(draft),
      ...(g.name_translations ? { nameTranslations: g.name_translations } : {}),
    })),
  ];
}

export function inputOf(layout: Layout): LayoutInput {
  const place = (m: DraftMonitor) => ({
    monitor_id: m.id,
    is_public: m.isPublic,
    public_name: m.publicName.trim() || null,
    show_locations: m.showLocations,
    ...(m.publicNameTranslations ? { public_name_translations: filled(m.publicNameTranslations) } : {}),
    show_response_chart: m.showResponseChart,
  });
  const [own, ...groups] = layout;
  return {
    ungrouped: own.monitors.map(place),
    groups: groups.map((g) => ({
      ...(g.groupId ? { id: g.groupId } : {}),
      name: g.name.trim(),
      monitors: g.monitors.map(place),
      ...(g.nameTranslations ? { name_translations: filled(g.nameTranslations) } : {}),
    })),
  };
}

/** Only the languages with a text, trimmed (what the server stores). */
const filled = (t: Record<string, string>) =>
  Object.fromEntries(Object.entries(t).flatMap(([locale, text]) => (text.trim() ? [[locale, text.trim()]] : [])));

/** What visitors read for each public monitor (by id), numbered in page order as the server does. */
export function shownNames(layout: Layout): Map<string, string> {
  const shown = new Map<string, string>();
  for (const m of layout.flatMap((s) => s.monitors)) {
    if (m.isPublic) shown.set(m.id, publicNameOf({ name: m.name, publicName: m.publicName, target: m.target }, shown.size + 1));
  }
  return shown;
}

/** A public monitor that would show 'Service N' because its own name looks like a host. */
export function needsPublicName(m: DraftMonitor): boolean {
  return m.isPublic && !m.publicName.trim() && looksLikeHost(m.name, m.target);
}

export function updateMonitor(
  layout: Layout,
  id: string,
  patch: Partial<Pick<DraftMonitor, 'isPublic' | 'publicName' | 'showLocations' | 'publicNameTranslations' | 'showResponseChart'>>,
): Layout {
  return layout.map((s) =>
    s.monitors.some((m) => m.id === id) ? { ...s, monitors: s.monitors.map((m) => (m.id === id ? { ...m, ...patch } : m)) } : s,
  );
}

/** Moves a monitor one place up (-1) or down (+1) within its section. */
export function moveMonitor(layout: Layout, id: string, by: -1 | 1): Layout {
  return layout.map((s) => {
    const i = s.monitors.findIndex((m) => m.id === id);
    if (i < 0 || i + by < 0 || i + by >= s.monitors.length) return s;
    const monitors = [...s.monitors];
    [monitors[i], monitors[i + by]] = [monitors[i + by], monitors[i]];
    return { ...s, monitors };
  });
}

/** Puts a monitor last in another section. */
export function moveToSection(layout: Layout, id: string, key: string): Layout {
  const m = layout.flatMap((s) => s.monitors).find((x) => x.id === id);
  if (!m || !layout.some((s) => s.key === key)) return layout;
  return layout.map((s) => {
    const rest = s.monitors.filter((x) => x.id !== id);
    return { ...s, monitors: s.key === key ? [...rest, m] : rest };
  });
}

export function addGroup(layout: Layout, name: string, key: string): Layout {
  return [...layout, { key, name: name.trim(), monitors: [] }];
}

export function renameGroup(layout: Layout, key: string, name: string): Layout {
  return layout.map((s) => (s.key === key && key !== UNGROUPED ? { ...s, name } : s));
}

/** Removes a group; its monitors join the end of the ungrouped section. */
export function removeGroup(layout: Layout, key: string): Layout {
  const gone = layout.find((s) => s.key === key);
  if (!gone || key === UNGROUPED) return layout;
  return layout.filter((s) => s.key !== key).map((s) => (s.key === UNGROUPED ? { ...s, monitors: [...s.monitors, ...gone.monitors] } : s));
}

/** Moves a group one place up or down among the groups (the ungrouped section stays first). */
export function moveGroup(layout: Layout, key: string, by: -1 | 1): Layout {
  const i = layout.findIndex((s) => s.key === key);
  if (i < 1 || i + by < 1 || i + by >= layout.length) return layout;
  const next = [...layout];
  [next[i], next[i + by]] = [next[i + by], next[i]];
  return next;
}

/** What is wrong before saving (the server says the same), or null. */
export function layoutProblem(layout: Layout): string | null {
  const names = new Set<string>();
  for (const g of layout.slice(1)) {
    const n = g.name.trim().toLowerCase();
    if (!n) return t('statusPage.layout.groupNeedsName');
    if (names.has(n)) return t('statusPage.layout.groupsSameName', { name: g.name.trim() });
    names.add(n);
  }
  return null;
}

/** Sets a group's names per language. */
export function translateGroup(layout: Layout, key: string, nameTranslations: Record<string, string>): Layout {
  return layout.map((s) => (s.key === key && key !== UNGROUPED ? { ...s, nameTranslations } : s));
}
