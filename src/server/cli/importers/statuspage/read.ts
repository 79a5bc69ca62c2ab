// Reading an Atlassian Statuspage export: one JSON file holding the answers of its REST API v1
// (https://developer.statuspage.io, the objects as its OpenAPI document describes them) for one
// page, under the name of the call that gave each:
//   page              GET /v1/pages/{page_id}
//   components        GET /v1/pages/{page_id}/components
//   component_groups  GET /v1/pages/{page_id}/component-groups
//   incidents         GET /v1/pages/{page_id}/incidents (each with its incident_updates)
//   subscribers       GET /v1/pages/{page_id}/subscribers?state=active | unconfirmed | quarantined,
//                     one list per state: a subscriber object itself carries no confirmation flag,
//                     the `state` filter of the list call is where Statuspage keeps it.
// A file of a single call's answer (a bare array of components) is refused: it is not the export.
import { readFileSync } from 'node:fs';
import { ImportFileError } from '../file-error.ts';

export interface SpComponent {
  id: string;
  name: string;
  description: string | null;
  position: number;
  status: string;
  /** true for a component that is a group (the components list holds groups too) */
  group: boolean;
  group_id: string | null;
  showcase: boolean;
  only_show_if_degraded: boolean;
}

export interface SpGroup {
  id: string;
  name: string;
  position: number;
  components: string[];
}

export interface SpIncidentUpdate {
  status: string;
  body: string;
  display_at: string | null;
  created_at: string;
}

export interface SpIncident {
  id: string;
  name: string;
  status: string;
  impact: string;
  created_at: string;
  started_at: string | null;
  resolved_at: string | null;
  incident_updates: SpIncidentUpdate[];
  component_ids: string[];
}

export interface SpSubscriber {
  id: string;
  mode: string;
  email: string | null;
  /** The label the output names it by: the address, or the masked phone or channel */
  label: string;
  state: 'active' | 'unconfirmed' | 'quarantined';
  /** Component ids it follows (none: all) */
  components: string[];
  created_at: string;
}

export interface SpData {
  pageName: string | null;
  components: SpComponent[];
  groups: SpGroup[];
  incidents: SpIncident[];
  subscribers: SpSubscriber[];
}

/** A file the importer cannot read, with the reason in words for the user. */
export class StatuspageFileError extends ImportFileError {}

type Json = Record<string, unknown>;
const obj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function readStatuspage(path: string): SpData {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new StatuspageFileError(`Cannot read ${path}: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StatuspageFileError(`${path} is not a Statuspage export: it is not JSON.`);
  }
  return readExport(json, path);
}

export function readExport(json: unknown, path: string): SpData {
  const notExport = (why: string) =>
    new StatuspageFileError(
      `${path} is not a Statuspage export (${why}): give one JSON object with the API's answers under "components", "component_groups", "incidents" and "subscribers".`,
    );
  if (!obj(json)) throw notExport(Array.isArray(json) ? 'a list, not one object' : 'not a JSON object');
  if (!Array.isArray(json.components)) throw notExport('no "components" list');
  const components: SpComponent[] = json.components.map((c, i) => {
    if (!obj(c) || !str(c.id) || !str(c.name) || typeof c.status !== 'string')
      throw notExport(`component ${i + 1} has no id, name or status`);
    return {
      id: str(c.id) as string,
      name: (str(c.name) as string).trim(),
      description: str(c.description),
      position: Number(c.position ?? i),
      status: c.status,
      group: c.group === true,
      group_id: str(c.group_id),
      showcase: c.showcase !== false,
      only_show_if_degraded: c.only_show_if_degraded === true,
    };
  });
  const groups: SpGroup[] = list(json.component_groups).flatMap((g, i) =>
    obj(g) && str(g.id) && str(g.name)
      ? [
          {
            id: str(g.id) as string,
            name: (str(g.name) as string).trim(),
            position: Number(g.position ?? i),
            components: list(g.components).map(String),
          },
        ]
      : [],
  );
  const incidents: SpIncident[] = list(json.incidents).flatMap((x) => {
    if (!obj(x) || !str(x.id) || !str(x.name) || !str(x.created_at)) return [];
    return [
      {
        id: str(x.id) as string,
        name: str(x.name) as string,
        status: str(x.status) ?? 'resolved',
        impact: str(x.impact) ?? 'none',
        created_at: str(x.created_at) as string,
        started_at: str(x.started_at),
        resolved_at: str(x.resolved_at),
        component_ids: list(x.components).flatMap((c) => (obj(c) && str(c.id) ? [str(c.id) as string] : [])),
        incident_updates: list(x.incident_updates).flatMap((u) =>
          obj(u) && str(u.created_at)
            ? [
                {
                  status: str(u.status) ?? '',
                  body: str(u.body) ?? '',
                  display_at: str(u.display_at),
                  created_at: str(u.created_at) as string,
                },
              ]
            : [],
        ),
      },
    ];
  });
  const subs = obj(json.subscribers) ? json.subscribers : {};
  const subscribers: SpSubscriber[] = (['active', 'unconfirmed', 'quarantined'] as const).flatMap((state) =>
    list(subs[state]).flatMap((s) => {
      if (!obj(s) || !str(s.id)) return [];
      const email = str(s.email);
      const label =
        email ??
        str(s.display_phone_number) ??
        str(s.obfuscated_channel_name) ??
        str(s.endpoint)?.replace(/\?.*$/, '') ??
        (str(s.id) as string);
      return [
        {
          id: str(s.id) as string,
          mode: str(s.mode) ?? 'email',
          email,
          label,
          state,
          components: list(s.components).map(String),
          created_at: str(s.created_at) ?? new Date(0).toISOString(),
        },
      ];
    }),
  );
  return { pageName: obj(json.page) ? str(json.page.name) : null, components, groups, incidents, subscribers };
}
