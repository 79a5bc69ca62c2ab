// Monitors as code: `npm run cli -- export [--out FILE]` writes the company's monitors,
// maintenance windows, alert channels and status page as YAML; `npm run cli -- apply FILE
// [--dry-run] [--prune] [--resend-secrets]` shows what differs and changes it through the
// management API. STATUSWATCH_URL is the company's host (http://acme.localhost:4321),
// STATUSWATCH_TOKEN an API token of the company (write scope to apply; read scope for export
// and --dry-run). Talks to the server only over HTTP, like any other API client.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError, createApi, type Api } from './monitors-as-code/api.ts';
import { FileError, SCHEMA_URL, parseCodeFile, redact } from './monitors-as-code/file.ts';
import { PlanError, applyPlan, plan, type Change } from './monitors-as-code/plan.ts';
import { codeFileText, credentialHeaders, readRemote, toCodeFile } from './monitors-as-code/state.ts';
import {
  IMPORT_SOURCES,
  ImportFailed,
  PlanFull,
  applyAll,
  hideSecrets,
  notImportedText,
  prepareImport,
} from './importers/import-command.ts';
import { ImportFileError } from './importers/file-error.ts';

const USAGE = `Usage:
  npm run cli -- export [--out FILE]
      (writes the company's monitors, maintenance, alert channels and status page as YAML)
  npm run cli -- apply FILE [--dry-run] [--prune] [--resend-secrets]
      --dry-run         show the changes, make none (read scope is enough)
      --prune           archive monitors, cancel maintenance windows and disable alert channels
                        that the file does not name (nothing is ever deleted)
      --resend-secrets  send alert channel secrets and the page password again
  npm run cli -- import uptime-kuma FILE [--dry-run]
      FILE is Uptime Kuma's database (data/kuma.db) or its 1.x JSON backup; --dry-run shows
      what maps, what would be created and what is not imported (read scope is enough)
  npm run cli -- import better-stack FOLDER [--dry-run]
      FOLDER holds Better Stack Uptime's saved API answers (monitors.json, heartbeats.json, ...)
  npm run cli -- import uptimerobot FILE [--dry-run]
      FILE is UptimeRobot's API v2 getMonitors answer (JSON) or its CSV export of monitors
  npm run cli -- import statuspage FILE [--dry-run]
      FILE is an Atlassian Statuspage export: one JSON object of its API answers (components,
      component_groups, incidents, subscribers by state); see docs/features/importers.md
Environment:
  STATUSWATCH_URL    the company's host, e.g. https://acme.statuswatch.example
  STATUSWATCH_TOKEN  an API token of that company (Account, API tokens)`;

const SIGN: Record<Change['action'], string> = {
  create: '+',
  update: '~',
  restore: '~',
  unchanged: '=',
  archive: '-',
  cancel: '-',
  disable: '-',
  kept: '!',
};

function connect(env: NodeJS.ProcessEnv): Api {
  const url = env.STATUSWATCH_URL;
  const token = env.STATUSWATCH_TOKEN;
  if (!url || !token)
    throw new UsageError('Set STATUSWATCH_URL (the company host, e.g. http://acme.localhost:4321) and STATUSWATCH_TOKEN (an API token).');
  try {
    return createApi(url, token);
  } catch {
    throw new UsageError(`STATUSWATCH_URL is not a URL: ${url}`);
  }
}

class UsageError extends Error {}

function flag(args: string[], name: string): boolean {
  return args.includes(`--${name}`);
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

export function planText(changes: Change[]): string {
  const lines: string[] = [];
  for (const c of changes) {
    lines.push(`${SIGN[c.action]} ${c.action} ${c.what} "${c.name}"`);
    for (const d of c.details) lines.push(`    ${d}`);
  }
  const count = (a: Change['action'][]) => changes.filter((c) => a.includes(c.action)).length;
  const parts = [
    `${count(['create'])} to create`,
    `${count(['update', 'restore'])} to update`,
    `${count(['archive', 'cancel', 'disable'])} to archive, cancel or disable`,
    `${count(['unchanged'])} unchanged`,
  ];
  const kept = count(['kept']);
  if (kept > 0) parts.push(`${kept} not in the file (kept)`);
  lines.push(`${parts.join(', ')}.`);
  return `${lines.join('\n')}\n`;
}

async function exportCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const api = connect(env);
  const out = option(args, 'out');
  const schemaPath = fileURLToPath(SCHEMA_URL);
  const schemaRef = relative(out ? dirname(resolve(out)) : process.cwd(), schemaPath) || schemaPath;
  const state = toCodeFile(await readRemote(api));
  const text = codeFileText(state, schemaRef);
  const credentials = credentialHeaders(state);
  if (credentials.length > 0)
    process.stderr.write(
      `The export holds these request headers as they are (replace each value with \${ENV_VAR} before committing the file):\n${credentials.map((c) => `  ${c}\n`).join('')}`,
    );
  if (out) {
    writeFileSync(out, text);
    process.stderr.write(
      `Wrote ${out}. Secrets are written as \${STATUSWATCH_...} references: set those variables before applying changes to them.\n`,
    );
  } else process.stdout.write(text);
  return 0;
}

async function applyCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) throw new UsageError(`apply needs a FILE.\n${USAGE}`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`Cannot read ${file}: ${(e as Error).message}`);
  }
  const { file: spec, fromEnv } = parseCodeFile(text, file, env);
  const api = connect(env);
  const remote = await readRemote(api);
  const missingSecrets: string[] = [];
  const changes = plan(spec, remote, { prune: flag(args, 'prune'), resendSecrets: flag(args, 'resend-secrets'), env, missingSecrets });
  const dryRun = flag(args, 'dry-run');
  process.stdout.write(redact(planText(changes), fromEnv));
  if (missingSecrets.length > 0) {
    const list = missingSecrets.map((m) => `  ${m}\n`).join('');
    if (!dryRun) throw new UsageError(`Nothing was changed: secrets to send are not set:\n${list}`);
    process.stdout.write(`Applying needs these secrets:\n${list}`);
  }
  const writes = changes.filter((c) => c.run);
  if (writes.length === 0) {
    process.stdout.write('No changes.\n');
    return 0;
  }
  if (dryRun) {
    process.stdout.write('Dry run: nothing was changed.\n');
    return 0;
  }
  const ctx = await applyPlan(api, changes, remote);
  for (const n of ctx.notes) process.stdout.write(`${redact(n, fromEnv)}\n`);
  process.stdout.write(`Applied ${writes.length} change${writes.length === 1 ? '' : 's'} to ${api.origin}.\n`);
  return 0;
}

async function importCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [source, ...rest] = args;
  const file = rest.find((a) => !a.startsWith('--'));
  if (!source || !(IMPORT_SOURCES as readonly string[]).includes(source) || !file)
    throw new UsageError(`import needs a source (${IMPORT_SOURCES.join(', ')}) and a FILE.\n${USAGE}`);
  const api = connect(env);
  const run = await prepareImport(source, file, api, env);
  const out = (text: string) => process.stdout.write(hideSecrets(text, run.mapped.secrets));
  out(planText(run.changes));
  out(notImportedText(run.mapped.notImported));
  const writes = run.changes.filter((c) => c.run);
  if (writes.length === 0) {
    out('No changes.\n');
    return 0;
  }
  if (flag(rest, 'dry-run')) {
    out('Dry run: nothing was changed.\n');
    return 0;
  }
  let ctx: Awaited<ReturnType<typeof applyAll>>;
  try {
    ctx = await applyAll(api, run.changes, run.ids);
  } catch (e) {
    // A refusal's text may quote what was sent: no imported secret reaches the terminal.
    if (e instanceof ImportFailed) e.message = hideSecrets(e.message, run.mapped.secrets);
    throw e;
  }
  for (const n of ctx.notes) out(`${n}\n`);
  out(`Imported: applied ${writes.length} change${writes.length === 1 ? '' : 's'} to ${api.origin}.\n`);
  return 0;
}

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === 'export') return await exportCommand(args, env);
    if (command === 'apply') return await applyCommand(args, env);
    if (command === 'import') return await importCommand(args, env);
    process.stderr.write(`${USAGE}\n`);
    return 2;
  } catch (e) {
    if (
      e instanceof UsageError ||
      e instanceof FileError ||
      e instanceof PlanError ||
      e instanceof ImportFileError ||
      e instanceof PlanFull
    ) {
      process.stderr.write(`${e.message}\n`);
      return 2;
    }
    if (e instanceof ImportFailed) {
      const refused = e.cause instanceof ApiError && e.cause.status === 403;
      process.stderr.write(
        `${e.message}${refused ? '\nImporting needs an API token with write scope of a company admin (read scope is enough for --dry-run).' : ''}\n`,
      );
      return 1;
    }
    if (e instanceof ApiError) {
      const hint =
        e.status === 403
          ? '\nThe API refused this token. Applying needs an API token with write scope of a company admin (read scope is enough for export and --dry-run).'
          : e.status === 401
            ? '\nThe token was not accepted: check STATUSWATCH_TOKEN (not expired or revoked) and that STATUSWATCH_URL is the company host.'
            : '';
      process.stderr.write(`${e.message}${hint}\n`);
      return 1;
    }
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
