// Reading what a Better Stack Uptime team holds, from its API answers saved with curl into one
// folder (docs/features/importers.md gives the commands). Each answer is JSON:API
// (`{"data": [{"id", "type", "attributes"}], "pagination": {...}}`); a list's answers are saved
// as NAME.json, its further pages as NAME-2.json, NAME-3.json ... (or back to back in one file):
//   monitors                       GET /api/v2/monitors                       (required)
//   heartbeats                     GET /api/v2/heartbeats
//   monitor-groups                 GET /api/v2/monitor-groups
//   status-pages                   GET /api/v2/status-pages
//   status-page-sections-ID        GET /api/v2/status-pages/ID/sections       (each page's)
//   status-page-resources-ID       GET /api/v2/status-pages/ID/resources      (each page's)
// Everything becomes one model in Better Stack's own terms; mapping to ours is map.ts's job.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ImportFileError } from '../file-error.ts';
import { savedAnswers } from '../json-documents.ts';

/**
 * A folder or file the importer cannot read, with the reason in words. A kind of the first
 * source's file error, so the CLI answers it like every import file error (message, exit code 2).
 */
export class BetterStackFileError extends ImportFileError {}

export interface JsonApiItem {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
}

export interface BetterStackData {
  monitors: JsonApiItem[];
  heartbeats: JsonApiItem[];
  monitorGroups: JsonApiItem[];
  statusPages: JsonApiItem[];
  sections: JsonApiItem[];
  resources: JsonApiItem[];
}

/** Each list's file name without ".json" and the page (-2) or status page (-ID) suffixes. */
export const BETTER_STACK_FILES = {
  monitors: 'monitors',
  heartbeats: 'heartbeats',
  monitorGroups: 'monitor-groups',
  statusPages: 'status-pages',
  sections: 'status-page-sections',
  resources: 'status-page-resources',
} as const;

/** The files of a list in `names`, the first page first ("monitors.json" before "monitors-2.json"). */
function filesOf(names: string[], base: string): string[] {
  const re = new RegExp(`^${base}((?:-\\d+)*)\\.json$`);
  const key = (n: string) => ((re.exec(n)?.[1] ?? '').match(/\d+/g) ?? []).map(Number);
  const cmp = (a: string, b: string) => {
    const x = key(a);
    const y = key(b);
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  };
  return names.filter((n) => re.test(n)).sort(cmp);
}

/** The JSON:API `type` of each list's items (a file of another list is refused by it). */
const ITEM_TYPE: Record<keyof BetterStackData, string> = {
  monitors: 'monitor',
  heartbeats: 'heartbeat',
  monitorGroups: 'monitor_group',
  statusPages: 'status_page',
  sections: 'status_page_section',
  resources: 'status_page_resource',
};

/** `path` is the folder, or its monitors.json (the other files are looked for next to it). */
export function readBetterStack(path: string): BetterStackData {
  let dir: string;
  try {
    dir = statSync(path).isDirectory() ? path : dirname(path);
  } catch (e) {
    throw new BetterStackFileError(`Cannot read ${path}: ${(e as Error).message}`);
  }
  // One file of any other name holds every answer back to back (`cat *.json > better-stack.json`,
  // what the console's upload takes): each item's JSON:API type says which list it belongs to.
  if (!statSync(path).isDirectory() && !/^monitors(-\d+)?\.json$/.test(basename(path))) return readBundle(path);
  const names = readdirSync(dir);
  if (filesOf(names, BETTER_STACK_FILES.monitors).length === 0)
    throw new BetterStackFileError(
      `${dir} holds no monitors.json: save GET /api/v2/monitors there (see docs/features/importers.md for the curl commands).`,
    );
  const data = {} as BetterStackData;
  for (const key of Object.keys(BETTER_STACK_FILES) as (keyof BetterStackData)[]) {
    const items = filesOf(names, BETTER_STACK_FILES[key]).flatMap((f) => readList(join(dir, f), ITEM_TYPE[key]));
    // A page saved twice (a re-run of the loop) must not double a monitor.
    data[key] = items.filter((item, i) => items.findIndex((x) => x.id === item.id) === i);
  }
  return data;
}

/** One file of all the answers: items go to their list by type (unknown types are refused by name). */
function readBundle(file: string): BetterStackData {
  const lists = Object.keys(ITEM_TYPE) as (keyof BetterStackData)[];
  const all = readList(file, null);
  const data = Object.fromEntries(lists.map((k) => [k, all.filter((i) => i.type === ITEM_TYPE[k])])) as unknown as BetterStackData;
  for (const k of lists) data[k] = data[k].filter((item, i) => data[k].findIndex((x) => x.id === item.id) === i);
  if (data.monitors.length === 0)
    throw new BetterStackFileError(
      `${file} holds no monitors: put the answers of GET /api/v2/monitors in it (see docs/features/importers.md for the curl commands).`,
    );
  return data;
}

/** The items of one saved list (`type`: the JSON:API type each must have; null: any type this importer reads) */
function readList(file: string, type: string | null): JsonApiItem[] {
  let docs: unknown[];
  try {
    docs = savedAnswers(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new BetterStackFileError(`${file} is not JSON (${(e as Error).message}): save the API's answer as it comes.`);
  }
  const items: JsonApiItem[] = [];
  for (const [n, doc] of docs.entries()) {
    const d = doc as { data?: unknown; errors?: unknown };
    if (d && typeof d === 'object' && 'errors' in d)
      throw new BetterStackFileError(
        `${file} holds an error answer (page ${n + 1}: ${JSON.stringify(d.errors).slice(0, 200)}): check the token and save it again.`,
      );
    if (!d || typeof d !== 'object' || !Array.isArray(d.data))
      throw new BetterStackFileError(
        `${file} is JSON but not a Better Stack API list (page ${n + 1} has no "data" array of items with "id", "type" and "attributes").`,
      );
    for (const item of d.data as Record<string, unknown>[]) {
      if (!item || typeof item !== 'object' || typeof item.attributes !== 'object' || item.attributes === null)
        throw new BetterStackFileError(`${file}: an item of page ${n + 1} has no "attributes".`);
      if (type === null && !Object.values(ITEM_TYPE).includes(String(item.type)))
        throw new BetterStackFileError(
          `${file} holds "${String(item.type)}" items, which are not Better Stack Uptime monitors, heartbeats, groups or status pages.`,
        );
      if (type !== null && item.type !== type)
        throw new BetterStackFileError(
          `${file} holds "${String(item.type)}" items where "${type}" items belong: was another list saved under this name?`,
        );
      items.push({ id: String(item.id), type: String(item.type), attributes: item.attributes as Record<string, unknown> });
    }
  }
  return items;
}
