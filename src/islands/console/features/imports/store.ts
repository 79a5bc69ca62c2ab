// Importing from another tool (issue 33): the export file goes to POST /api/v1/imports, first as
// a dry run (what maps, what is not imported and why), then, when the user confirms, for real.
// The same file is sent twice: the server keeps nothing between the two calls.
import { atom } from 'nanostores';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import type { components } from '../../../../api/schema.d.ts';

export type ImportResult = components['schemas']['ImportResult'];

/** The tools the server imports from (src/server/cli/importers/sources.ts), in menu order. */
export const IMPORT_SOURCES = ['uptime-kuma', 'statuspage', 'uptimerobot', 'better-stack'] as const;
export type ImportSourceId = (typeof IMPORT_SOURCES)[number];

export type ImportState =
  | { step: 'idle' }
  | { step: 'checking' | 'importing'; result?: ImportResult }
  | { step: 'checked' | 'imported'; result: ImportResult }
  | { step: 'failed'; text: string; fields: Record<string, string>; result?: ImportResult };

export const $import = atom<ImportState>({ step: 'idle' });

export async function sendImport(source: ImportSourceId, file: File, dryRun: boolean): Promise<void> {
  const before = $import.get();
  const shown = 'result' in before ? before.result : undefined;
  $import.set({ step: dryRun ? 'checking' : 'importing', result: dryRun ? undefined : shown });
  const form = new FormData();
  form.set('source', source);
  form.set('dry_run', String(dryRun));
  form.set('file', file, file.name);
  const failed = t(dryRun ? 'imports.store.checkFailed' : 'imports.store.importFailed');
  try {
    const r = await api.POST('/api/v1/imports', { body: form as never });
    if (r.data) {
      $import.set({ step: dryRun ? 'checked' : 'imported', result: r.data });
      return;
    }
    const fields = (r.error as { errors?: Record<string, string> } | undefined)?.errors ?? {};
    $import.set({ step: 'failed', text: errorText(r.error, failed), fields, result: dryRun ? undefined : shown });
  } catch (e) {
    $import.set({ step: 'failed', text: errorText(e, failed), fields: {} });
  }
}

export function resetImport(): void {
  $import.set({ step: 'idle' });
}
