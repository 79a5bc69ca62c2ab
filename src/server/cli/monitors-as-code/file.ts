// Reading a monitors-as-code file: YAML parsed with positions, checked against the committed
// JSON Schema (schemas/statuswatch.schema.json, the one editors use) with each error's line,
// names checked unique, then ${ENV_VAR} references resolved. All of it before any API call.
import { readFileSync } from 'node:fs';
import { LineCounter, isNode, parseDocument, type Document } from 'yaml';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { channelOf } from '../../notify/channels/index.ts';
import { KINDS, type Kind } from '../../engine/kinds/index.ts';
import type { CodeFile } from './model.ts';

export const SCHEMA_URL = new URL('../../../../schemas/statuswatch.schema.json', import.meta.url);

export class FileError extends Error {
  readonly problems: string[];
  constructor(file: string, problems: string[]) {
    super(`${file} is not a valid StatusWatch file:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'FileError';
    this.problems = problems;
  }
}

let validator: ValidateFunction | null = null;
function validate() {
  if (validator) return validator;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  validator = ajv.compile(JSON.parse(readFileSync(SCHEMA_URL, 'utf8')));
  return validator;
}

/** "line N" of the value at a JSON pointer, as far as the document holds it. */
function lineOf(doc: Document, lines: LineCounter, pointer: string): number | null {
  const path = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return null;
}

function describe(e: ErrorObject): string {
  const where = e.instancePath || '(top level)';
  if (e.keyword === 'additionalProperties')
    return `${where}: unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  if (e.keyword === 'enum')
    return `${where}: ${e.message} (${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')})`;
  return `${where}: ${e.message}`;
}

function duplicates(values: string[]): string[] {
  return [...new Set(values.filter((v, i) => values.indexOf(v) !== i))];
}

/** Every "${NAME}" replaced by the environment's value; a missing variable is noted. `used`
 *  collects each value put in, so output can show the reference instead of the value. */
function resolveEnv(value: unknown, env: NodeJS.ProcessEnv, missing: Set<string>, used: Map<string, string>): unknown {
  if (typeof value === 'string')
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const v = env[name];
      if (v === undefined) missing.add(name);
      else if (v !== '') used.set(v, `\${${name}}`);
      return v ?? '';
    });
  if (Array.isArray(value)) return value.map((v) => resolveEnv(v, env, missing, used));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveEnv(v, env, missing, used)]));
  return value;
}

/** Secrets stay ${ENV_VAR} references until a write sends them (resolveSecret), so an unchanged
 *  channel or page password needs no variable set. */
function withoutSecrets(file: CodeFile, fn: (f: CodeFile) => CodeFile): CodeFile {
  const held: Record<string, unknown>[] = [];
  const copy: CodeFile = structuredClone(file);
  for (const c of copy.alert_channels ?? []) {
    const kept: Record<string, unknown> = {};
    for (const f of secretFieldsOf(c.type))
      if (f in c.config) {
        kept[f] = c.config[f];
        delete c.config[f];
      }
    held.push(kept);
  }
  const heldMonitors: Record<string, unknown>[] = [];
  for (const m of copy.monitors ?? []) {
    const kept: Record<string, unknown> = {};
    for (const f of monitorSecretFieldsOf(m.type))
      if (f in m) {
        kept[f] = m[f];
        delete m[f];
      }
    heldMonitors.push(kept);
  }
  const password = copy.status_page?.access?.password;
  if (copy.status_page?.access) delete copy.status_page.access.password;
  const out = fn(copy);
  (out.alert_channels ?? []).forEach((c, i) => Object.assign(c.config, held[i]));
  (out.monitors ?? []).forEach((m, i) => Object.assign(m, heldMonitors[i]));
  if (password !== undefined && out.status_page?.access) out.status_page.access.password = password;
  return out;
}

/** The config fields of a channel type the API never returns (webhook's own signing secret is the server's). */
export function secretFieldsOf(type: string): string[] {
  return (channelOf(type)?.secretFields ?? []).filter((f) => f !== 'secret');
}

/** The fields of a monitor kind the API never returns (database and mail passwords). */
export function monitorSecretFieldsOf(type: string): string[] {
  return [...((KINDS as Record<string, Kind<object>>)[type]?.secretFields ?? [])];
}

/** A secret's value at the moment a write needs it, and the variables it lacks. */
export function resolveSecret(value: unknown, env: NodeJS.ProcessEnv): { value: unknown; missing: string[] } {
  const missing = new Set<string>();
  const resolved = resolveEnv(value, env, missing, new Map());
  return { value: resolved, missing: [...missing] };
}

/** Output with each value that came from the environment shown as its ${NAME} again. */
export function redact(text: string, used: Map<string, string>): string {
  let out = text;
  for (const [value, ref] of [...used].sort(([a], [b]) => b.length - a.length)) out = out.split(value).join(ref);
  return out;
}

export function parseCodeFile(text: string, file: string, env: NodeJS.ProcessEnv): { file: CodeFile; fromEnv: Map<string, string> } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0)
    throw new FileError(
      file,
      doc.errors.map((e) => `line ${e.linePos?.[0].line ?? '?'}: ${e.message.split('\n')[0]}`),
    );
  const data = doc.toJS() as unknown;
  const check = validate();
  if (!check(data)) {
    const problems = (check.errors ?? [])
      .filter((e) => e.keyword !== 'if' && e.keyword !== 'oneOf')
      .map((e) => {
        const line = lineOf(doc, lines, e.instancePath);
        return `${line === null ? '' : `line ${line}: `}${describe(e)}`;
      });
    throw new FileError(file, [...new Set(problems)]);
  }
  const parsed = data as CodeFile;
  const problems: string[] = [];
  const named = (kind: string, values: string[]) => {
    for (const d of duplicates(values)) problems.push(`${kind} "${d}" appears more than once (${kind}s are matched by name)`);
  };
  named(
    'monitor',
    (parsed.monitors ?? []).map((m) => m.name),
  );
  named(
    'maintenance window',
    (parsed.maintenance ?? []).map((m) => m.title),
  );
  named(
    'alert channel',
    (parsed.alert_channels ?? []).map((c) => c.name),
  );
  named(
    'status page group',
    (parsed.status_page?.groups ?? []).map((g) => g.name),
  );
  const monitorNames = new Set((parsed.monitors ?? []).map((m) => m.name));
  const known = (where: string, names: string[] | null | undefined) => {
    for (const n of names ?? []) if (!monitorNames.has(n)) problems.push(`${where} names monitor "${n}", which the file does not describe`);
  };
  for (const w of parsed.maintenance ?? []) known(`maintenance window "${w.title}"`, w.monitors);
  for (const c of parsed.alert_channels ?? []) known(`alert channel "${c.name}"`, c.monitors);
  const placed = [...(parsed.status_page?.ungrouped ?? []), ...(parsed.status_page?.groups ?? []).flatMap((g) => g.monitors)].map(
    (p) => p.monitor,
  );
  known('the status page', placed);
  for (const d of duplicates(placed)) problems.push(`the status page lists monitor "${d}" more than once`);
  if (problems.length > 0) throw new FileError(file, problems);
  const missing = new Set<string>();
  const fromEnv = new Map<string, string>();
  const resolved = withoutSecrets(parsed, (f) => resolveEnv(f, env, missing, fromEnv) as CodeFile);
  if (missing.size > 0)
    throw new FileError(
      file,
      [...missing].map((n) => `environment variable ${n} is not set (referenced as \${${n}})`),
    );
  return { file: resolved, fromEnv };
}
