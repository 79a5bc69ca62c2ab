// `npm run cli -- import uptime-kuma FILE [--dry-run]`: another tool's export, mapped to a
// monitors-as-code file and put through the same plan and apply as `apply` (matched by name, so
// a second import changes nothing). Nothing is half-imported, in two steps:
//  1. before anything is sent, each mapped monitor and channel is checked with the server's own
//     validation code (the kind's and the channel type's), and the whole file against the
//     monitors-as-code schema; what would be refused moves to "Not imported" with the reason;
//  2. if the server still refuses a write midway (a plan limit, a host budget), what this run
//     created is undone through the API in reverse order: monitors archived, channels disabled,
//     maintenance windows cancelled (company admins cannot delete; archived and disabled objects
//     are restored by the next import of the same names).
import { stringify } from 'yaml';
import { KINDS, type Kind } from '../../engine/kinds/index.ts';
import { channelOf } from '../../notify/channels/index.ts';
import type { Api } from '../monitors-as-code/api.ts';
import { parseCodeFile, redact } from '../monitors-as-code/file.ts';
import type { CodeFile } from '../monitors-as-code/model.ts';
import { plan, type Change, type RunContext } from '../monitors-as-code/plan.ts';
import { readRemote } from '../monitors-as-code/state.ts';
import { importSource } from './sources.ts';
import { planIncidents, planSubscribers } from './history.ts';
import type { Mapped, NotImported } from './uptime-kuma/map.ts';

export { IMPORT_SOURCES } from './sources.ts';

/** What would be refused by the server's validation, moved out of the file with the reason. */
export function prevalidate(mapped: Mapped): void {
  const file = mapped.file;
  const out: NotImported[] = [];
  const dropped = new Set<string>();
  for (const m of file.monitors ?? []) {
    const kind = (KINDS as Record<string, Kind<object>>)[m.type];
    if (!kind) continue;
    const read = ((key: string) => (m[key] === undefined || m[key] === null ? undefined : m[key])) as never;
    const { problems } = kind.validate(read, { allowPrivate: true });
    const first = Object.entries(problems)[0];
    if (first) {
      out.push({ what: 'monitor', name: m.name, why: `${first[0]}: ${first[1]}` });
      dropped.add(m.name);
    }
  }
  // A group whose children are all gone goes too (a group needs one), then anything naming the dropped.
  for (const m of file.monitors ?? [])
    if (Array.isArray(m.children)) {
      m.children = (m.children as string[]).filter((c) => !dropped.has(c));
      if ((m.children as string[]).length === 0 && !dropped.has(m.name)) {
        out.push({ what: 'monitor', name: m.name, why: 'none of its monitors is imported' });
        dropped.add(m.name);
      }
    }
  file.monitors = (file.monitors ?? []).filter((m) => !dropped.has(m.name));
  for (const c of file.alert_channels ?? []) c.monitors = c.monitors?.filter((n) => !dropped.has(n)) ?? c.monitors;
  for (const w of file.maintenance ?? []) w.monitors = w.monitors?.filter((n) => !dropped.has(n));
  file.maintenance = (file.maintenance ?? []).filter((w) => {
    if ((w.monitors ?? []).length > 0) return true;
    out.push({ what: 'maintenance', name: w.title, why: 'none of its monitors is imported' });
    return false;
  });
  if (file.status_page?.groups)
    file.status_page.groups = file.status_page.groups
      .map((g) => ({ ...g, monitors: g.monitors.filter((p) => !dropped.has(p.monitor)) }))
      .filter((g) => g.monitors.length > 0);
  file.alert_channels = (file.alert_channels ?? []).filter((c) => {
    try {
      channelOf(c.type)?.parseConfig(c.config);
      return true;
    } catch (e) {
      const field = (e as { field?: string }).field;
      out.push({ what: 'alert channel', name: c.name, why: `${field ? `${field}: ` : ''}${(e as Error).message}` });
      return false;
    }
  });
  mapped.notImported.unshift(...out);
}

/** The mapped file through the monitors-as-code schema and its name checks (an importer bug shows here, before any write). */
export function checkAgainstSchema(file: CodeFile): CodeFile {
  return parseCodeFile(stringify(file), '(imported file)', {}).file;
}

export function notImportedText(items: NotImported[]): string {
  if (items.length === 0) return 'Not imported: nothing.\n';
  return `Not imported (${items.length}):\n${items.map((i) => `  - ${i.what} "${i.name}": ${i.why}\n`).join('')}`;
}

export interface Undo {
  /** Objects this run created, in order */
  created: { what: Change['what']; id: string; name: string }[];
}

/** Runs the changes; on a failure, undoes what this run created (reverse order) and rethrows. */
export async function applyAll(api: Api, changes: Change[], ids: Map<string, string>): Promise<RunContext> {
  const created: Undo['created'] = [];
  // Every POST that answers an id is a creation: recorded to be undone.
  const recording: Api = {
    origin: api.origin,
    get: (path) => api.get(path),
    async send<T>(method: 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown) {
      const answer = await api.send<T>(method, path, body);
      const id = (answer as { id?: unknown } | null)?.id;
      if (method === 'POST' && typeof id === 'string') {
        if (path === '/api/v1/monitors') created.push({ what: 'monitor', id, name: String((body as { name?: unknown }).name) });
        else if (path === '/api/v1/alert-channels')
          created.push({ what: 'alert channel', id, name: String((body as { name?: unknown }).name) });
        else if (path === '/api/v1/maintenance-windows')
          created.push({ what: 'maintenance window', id, name: String((body as { title?: unknown }).title) });
      }
      return answer;
    },
  };
  const ctx: RunContext = { api: recording, ids, notes: [] };
  try {
    for (const c of changes) await c.run?.(ctx);
  } catch (e) {
    const undone: string[] = [];
    const failed: string[] = [];
    for (const c of [...created].reverse()) {
      const path =
        c.what === 'monitor'
          ? `/api/v1/monitors/${c.id}/archive`
          : c.what === 'maintenance window'
            ? `/api/v1/maintenance-windows/${c.id}/cancel`
            : `/api/v1/alert-channels/${c.id}`;
      try {
        if (c.what === 'alert channel') await api.send('PUT', path, { enabled: false });
        else await api.send('POST', path);
        undone.push(`${c.what} "${c.name}"`);
      } catch (u) {
        failed.push(`${c.what} "${c.name}" (${(u as Error).message})`);
      }
    }
    throw new ImportFailed(e as Error, undone, failed);
  }
  return ctx;
}

export class ImportFailed extends Error {
  constructor(cause: Error, undone: string[], failed: string[]) {
    super(
      [
        `The import stopped: ${cause.message}`,
        undone.length > 0
          ? `Undone (monitors archived, channels disabled, windows cancelled): ${undone.join(', ')}.`
          : 'Nothing had been created.',
        ...(failed.length > 0 ? [`Could not undo: ${failed.join(', ')}; archive or disable them in the console.`] : []),
      ].join('\n'),
    );
    this.name = 'ImportFailed';
    this.cause = cause;
  }
}

export interface ImportRun {
  mapped: Mapped;
  changes: Change[];
  /** Monitor ids by name on the server now (the plan's changes look them up) */
  ids: Map<string, string>;
}

/** Read, map, validate and plan: everything before the first write. */
export async function prepareImport(source: string, path: string, api: Api, env: NodeJS.ProcessEnv): Promise<ImportRun> {
  return planImport(loadImport(source, path), api, env);
}

/** The export read and mapped (throws the source's file error on a file it cannot read). */
export function loadImport(source: string, path: string): Mapped {
  const from = importSource(source);
  if (!from) throw new Error(`unknown source ${source}`);
  return from.load(path);
}

/** A mapped export validated and planned against the server, before any write. */
export async function planImport(mapped: Mapped, api: Api, env: NodeJS.ProcessEnv): Promise<ImportRun> {
  // what the server must be asked first (Better Stack: which probe locations exist)
  await mapped.refine?.(api);
  prevalidate(mapped);
  mapped.file = checkAgainstSchema(mapped.file);
  const remote = await readRemote(api);
  const changes = plan(mapped.file, remote, { prune: false, resendSecrets: false, env, missingSecrets: [] });
  changes.push(...(await planIncidents(api, mapped.incidents)), ...(await planSubscribers(api, mapped.subscribers)));
  await checkPlanRoom(api, changes);
  // Objects already there that the import does not name stay as they are: not worth a line each.
  return { mapped, changes: changes.filter((c) => c.action !== 'kept'), ids: new Map(remote.monitors.map((m) => [m.name, m.id])) };
}

/** The monitors the import adds would not fit the company's plan: refused before any write. */
export class PlanFull extends Error {}

async function checkPlanRoom(api: Api, changes: Change[]): Promise<void> {
  const adding = changes.filter((c) => c.what === 'monitor' && (c.action === 'create' || c.action === 'restore')).length;
  if (adding === 0) return;
  let usage: { plan: string; monitors: { used: number; limit: number | null } };
  try {
    const { company } = await api.get<{ company: { id: string } }>('/api/v1/company/fetch-company');
    usage = await api.get(`/api/v1/companies/${encodeURIComponent(company.id)}/usage`);
  } catch {
    // Not readable with this token: the server still refuses a monitor too many, and the apply
    // then undoes what it made.
    return;
  }
  const { used, limit } = usage.monitors;
  if (limit !== null && used + adding > limit)
    throw new PlanFull(
      `Nothing was imported: the import adds ${adding} monitors and ${used} are in use, but the ${usage.plan} plan allows ${limit}. Upgrade the plan or archive monitors you no longer need, then import again.`,
    );
}

/** Output with every imported secret shown as "(secret)". */
export function hideSecrets(text: string, secrets: Set<string>): string {
  return redact(text, new Map([...secrets].filter((s) => s.length >= 4).map((s) => [s, '(secret)'])));
}
