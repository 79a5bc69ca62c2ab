// One import as data rather than terminal text: the console's upload (POST /api/v1/imports)
// answers this. The steps are the CLI's own (prepareImport, then applyAll with its undo), so a
// file imports the same way from the terminal and from the console.
import type { Api } from '../monitors-as-code/api.ts';
import type { Change } from '../monitors-as-code/plan.ts';
import { applyAll, hideSecrets, ImportFailed, loadImport, planImport } from './import-command.ts';
import type { NotImported } from './uptime-kuma/map.ts';

export interface ImportChange {
  action: Change['action'];
  what: Change['what'];
  name: string;
  details: string[];
}

export interface ImportOutcome {
  changes: ImportChange[];
  notImported: NotImported[];
  /** Lines worth telling the user once (a new push monitor's URL) */
  notes: string[];
  /** Writes the import makes (or made): 0 when everything is already there */
  writes: number;
  applied: boolean;
}

/** The export could not be read as the source's file: the reason, for the user. */
export class ImportFileRefused extends Error {}

/** Reads, maps and plans the file at `path`; applies it unless `dryRun`. Secrets never in the answer. */
export async function runImport(api: Api, source: string, path: string, dryRun: boolean): Promise<ImportOutcome> {
  let mapped: ReturnType<typeof loadImport>;
  try {
    mapped = loadImport(source, path);
  } catch (e) {
    // load() only reads and maps a local file: whatever it throws is about the file.
    throw new ImportFileRefused((e as Error).message);
  }
  // Secret ${VARIABLES} are never resolved from the server's own environment.
  const run = await planImport(mapped, api, {});
  const hide = (text: string) => hideSecrets(text, run.mapped.secrets);
  const writes = run.changes.filter((c) => c.run).length;
  let notes: string[] = [];
  if (!dryRun && writes > 0) {
    try {
      notes = (await applyAll(api, run.changes, run.ids)).notes;
    } catch (e) {
      // A refusal's text may quote what was sent.
      if (e instanceof ImportFailed) e.message = hide(e.message);
      throw e;
    }
  }
  return {
    changes: run.changes.map((c) => ({ action: c.action, what: c.what, name: hide(c.name), details: c.details.map(hide) })),
    notImported: run.mapped.notImported.map((n) => ({ what: n.what, name: hide(n.name), why: hide(n.why) })),
    notes: notes.map(hide),
    writes,
    applied: !dryRun && writes > 0,
  };
}
