// Imports from other tools (issue 33): who may run one, what the answer holds, and the audit.
// The import itself is the CLI's (src/server/cli/importers): read, map, plan, apply with undo,
// through an `Api` the caller hands in. Over HTTP that is the platform's own routes called with
// the caller's credentials (http/in-process-api.ts), so every write is checked, scoped and
// audited as if the caller had made it by hand.
import type { Api } from '../../cli/monitors-as-code/api.ts';
import { ApiError } from '../../cli/monitors-as-code/api.ts';
import { PlanError } from '../../cli/monitors-as-code/plan.ts';
import { ImportFailed, PlanFull } from '../../cli/importers/import-command.ts';
import { importSource } from '../../cli/importers/sources.ts';
import { ImportFileRefused, runImport, type ImportOutcome } from '../../cli/importers/run-import.ts';
import { auditFromCtx } from '../audit/record.ts';
import { requirePermission } from '../authz.ts';
import type { Actor, Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';

/**
 * Company admins only, dry run included: a dry run reads the company's alert channels and status
 * page settings (which viewers may not see) and shows what would change in them.
 */
export function authorizeImport(ctx: Ctx): Actor {
  const actor = requirePermission(ctx, 'create', 'monitors', 'import monitors');
  requirePermission(ctx, 'update', 'settings', 'import alert channels and the status page');
  if (!actor.companyId)
    throw new DomainError('forbidden', "Imports go into one company: sign in as that company's admin on its own address.");
  return actor;
}

export interface ImportInput {
  source: string;
  /** The uploaded file, written to a private temporary file */
  path: string;
  /** The file's name as uploaded, which refusals name instead of the temporary path */
  fileName: string;
  dryRun: boolean;
}

export interface ImportAnswer {
  source: string;
  dry_run: boolean;
  applied: boolean;
  changes: { action: string; what: string; name: string; details: string[] }[];
  counts: { create: number; update: number; unchanged: number };
  not_imported: { what: string; name: string; why: string }[];
  notes: string[];
}

export async function importFile(ctx: Ctx, api: Api, input: ImportInput): Promise<ImportAnswer> {
  const actor = authorizeImport(ctx);
  if (!importSource(input.source))
    throw new DomainError('validation', 'Choose a tool to import from.', { fields: { source: 'Unknown tool.' } });
  if (!input.dryRun && actor.apiToken?.scope === 'read')
    throw new DomainError('forbidden', 'This API token is read-only: it may run a dry run; importing needs write scope.');
  const named = (text: string) => text.split(input.path).join(input.fileName);
  let outcome: ImportOutcome;
  try {
    outcome = await runImport(api, input.source, input.path, input.dryRun);
  } catch (e) {
    if (e instanceof ImportFileRefused) throw new DomainError('validation', named(e.message), { fields: { file: named(e.message) } });
    if (e instanceof PlanFull) throw new DomainError('limit_exceeded', e.message);
    if (e instanceof PlanError) throw new DomainError('conflict', e.message);
    if (e instanceof ImportFailed) {
      await audit(ctx, input, { applied: false, failed: e.message.split('\n')[0] });
      throw new DomainError('conflict', e.message);
    }
    if (e instanceof ApiError) {
      if (e.status === 401 || e.status === 403) throw new DomainError(e.status === 401 ? 'unauthorized' : 'forbidden', e.detail);
      // Refused while planning (the past incidents' check): before any write.
      if (e.status >= 400 && e.status < 500) throw new DomainError('conflict', `Nothing was imported: ${e.message}`);
      throw new DomainError('unavailable', `The import could not read the company's current state: ${e.detail}`, { cause: e });
    }
    throw e;
  }
  const count = (actions: string[]) => outcome.changes.filter((c) => actions.includes(c.action)).length;
  const answer: ImportAnswer = {
    source: input.source,
    dry_run: input.dryRun,
    applied: outcome.applied,
    changes: outcome.changes,
    counts: { create: count(['create']), update: count(['update', 'restore']), unchanged: count(['unchanged']) },
    not_imported: outcome.notImported,
    notes: outcome.notes,
  };
  if (outcome.applied) await audit(ctx, input, { applied: true, ...answer.counts, not_imported: outcome.notImported.length });
  return answer;
}

function audit(ctx: Ctx, input: ImportInput, details: Record<string, unknown>): Promise<void> {
  return auditFromCtx(ctx.services.db, ctx, 'data_import', { source: input.source, file: input.fileName.slice(0, 200), ...details });
}
