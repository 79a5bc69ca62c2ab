// /settings/import: bring monitors, alert channels, maintenance and the status page over from
// another tool (issue 33), for company admins. Choose the tool and its export file; the dry run
// lists what would be created or changed and what is not imported, with why; "Import" then
// applies it (all or nothing: a refusal midway undoes what was created) and shows the result.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { t } from '../../i18n.ts';
import { Field } from '../../ui/Field.tsx';
import './imports.css';
import { $import, IMPORT_SOURCES, resetImport, sendImport, type ImportResult, type ImportSourceId } from './store.ts';

const ACTION_KEY = {
  create: 'imports.action.create',
  update: 'imports.action.update',
  restore: 'imports.action.restore',
  unchanged: 'imports.action.unchanged',
  archive: 'imports.action.archive',
  cancel: 'imports.action.cancel',
  disable: 'imports.action.disable',
  kept: 'imports.action.kept',
} as const;

/** Each tool's name and the line on which file to give, as catalogue keys. */
const SOURCE_KEYS = {
  'uptime-kuma': ['imports.source.uptimeKuma.label', 'imports.source.uptimeKuma.file'],
  statuspage: ['imports.source.statuspage.label', 'imports.source.statuspage.file'],
  uptimerobot: ['imports.source.uptimerobot.label', 'imports.source.uptimerobot.file'],
  'better-stack': ['imports.source.betterStack.label', 'imports.source.betterStack.file'],
} as const satisfies Record<ImportSourceId, readonly [string, string]>;

export function ImportPage({ title }: { title: string }) {
  const state = useStore($import);
  const [source, setSource] = useState<ImportSourceId>('uptime-kuma');
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  useEffect(() => resetImport, []);
  const busy = state.step === 'checking' || state.step === 'importing';
  const fields = state.step === 'failed' ? state.fields : {};
  const check = (e: FormEvent) => {
    e.preventDefault();
    if (!file) {
      setMissing(true);
      return;
    }
    void sendImport(source, file, true);
  };
  const result = 'result' in state ? state.result : undefined;
  const writes = result ? result.changes.filter((c) => c.action !== 'unchanged').length : 0;
  return (
    <div className="sw-admin sw-settings">
      <nav aria-label={t('imports.page.breadcrumb')} className="sw-breadcrumb">
        <a href="/settings">{t('imports.page.settings')}</a> / <span aria-current="page">{t('imports.page.here')}</span>
      </nav>
      <h2 className="sw-page-title">{title}</h2>
      <section className="sw-card" aria-labelledby="import-file">
        <header className="sw-card-head">
          <h3 id="import-file">{t('imports.page.fileTitle')}</h3>
        </header>
        <div className="sw-card-body">
          <p>{t('imports.page.intro')}</p>
          <form className="sw-form sw-import-form" onSubmit={check} noValidate>
            <Field id="import-source" label={t('imports.page.source')} error={fields.source} hint={t(SOURCE_KEYS[source][1])}>
              <select
                id="import-source"
                value={source}
                disabled={busy}
                aria-describedby="import-source-hint"
                onChange={(e) => {
                  setSource(e.target.value as ImportSourceId);
                  resetImport();
                }}
              >
                {IMPORT_SOURCES.map((s) => (
                  <option key={s} value={s}>
                    {t(SOURCE_KEYS[s][0])}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="import-upload" label={t('imports.page.file')} required error={missing ? t('imports.page.fileMissing') : fields.file}>
              <input
                id="import-upload"
                type="file"
                disabled={busy}
                aria-invalid={missing || !!fields.file}
                onChange={(e) => {
                  setFile(e.target.files?.[0] ?? null);
                  setMissing(false);
                  resetImport();
                }}
              />
            </Field>
            <div className="sw-import-actions">
              <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
                {state.step === 'checking' ? t('imports.page.checking') : t('imports.page.check')}
              </button>
            </div>
          </form>
          {state.step === 'failed' && (
            <div className="sw-banner sw-banner-error" role="alert">
              {state.text}
            </div>
          )}
        </div>
      </section>
      {result && (
        <Outcome
          result={result}
          writes={writes}
          busy={busy}
          imported={state.step === 'imported'}
          onImport={() => file && void sendImport(source, file, false)}
        />
      )}
    </div>
  );
}

function Outcome(props: { result: ImportResult; writes: number; busy: boolean; imported: boolean; onImport: () => void }) {
  const { result, writes, imported } = props;
  const { create, update, unchanged } = result.counts;
  return (
    <>
      <section className="sw-card" aria-labelledby="import-changes">
        <header className="sw-card-head">
          <h3 id="import-changes">{imported ? t('imports.result.importedTitle') : t('imports.result.planTitle')}</h3>
        </header>
        <div className="sw-card-body">
          <p role="status" data-testid="import-summary">
            {imported
              ? t('imports.result.imported', { create, update })
              : writes === 0
                ? t('imports.result.nothingToDo')
                : t('imports.result.counts', { create, update, unchanged })}
          </p>
          {result.notes.length > 0 && (
            <ul className="sw-import-notes">
              {result.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          )}
          <ul className="sw-import-list" aria-label={t('imports.result.changesLabel')}>
            {result.changes.map((c, i) => (
              <li key={`${c.what}-${c.name}-${i}`}>
                <span className="sw-import-action">{t(ACTION_KEY[c.action])}</span> {c.what} <strong>{c.name}</strong>
                {c.details.length > 0 && (
                  <ul className="sw-import-details sw-muted">
                    {c.details.map((d) => (
                      <li key={d}>{d}</li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
          {!imported && writes > 0 && (
            <div className="sw-import-actions">
              <button type="button" className="sw-btn sw-btn-primary" disabled={props.busy} onClick={props.onImport}>
                {props.busy ? t('imports.result.importing') : t('imports.result.import')}
              </button>
            </div>
          )}
        </div>
      </section>
      <section className="sw-card" aria-labelledby="import-left">
        <header className="sw-card-head">
          <h3 id="import-left">{t('imports.result.notImportedTitle', { count: result.not_imported.length })}</h3>
        </header>
        <div className="sw-card-body">
          {result.not_imported.length === 0 ? (
            <p>{t('imports.result.everything')}</p>
          ) : (
            <ul className="sw-import-list">
              {result.not_imported.map((n, i) => (
                <li key={`${n.what}-${n.name}-${i}`}>
                  {n.what} <strong>{n.name}</strong>: {n.why}
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
    </>
  );
}
