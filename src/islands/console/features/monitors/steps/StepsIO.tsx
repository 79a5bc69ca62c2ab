// Import and export of the steps as JSON or YAML: export fills the text box (to copy) and offers a
// download; import reads the text box or a chosen file. A bad text is named and left in the box,
// and the steps in the editor stay as they were until an import succeeds.
import { useState } from 'react';
import { t, tr } from '../../../i18n.ts';
import { exportSteps, importSteps, type Step, type SyntheticKind } from './model.ts';

interface Props {
  kind: SyntheticKind;
  steps: Step[];
  onImport(steps: Step[]): void;
}

/** The YAML library, loaded the first time it is needed (only authors of steps pay for it). */
const yaml = () => import('yaml');

export function StepsIO({ kind, steps, onImport }: Props) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [download, setDownload] = useState<{ href: string; name: string } | null>(null);

  async function doExport(format: 'json' | 'yaml') {
    const { stringify } = await yaml();
    const out = exportSteps(steps, format, (v) => stringify(v));
    setText(out);
    setError(null);
    setNote(t('monitors.io.exported', { count: steps.length, format: format.toUpperCase() }));
    if (download) URL.revokeObjectURL(download.href);
    const type = format === 'json' ? 'application/json' : 'application/yaml';
    setDownload({ href: URL.createObjectURL(new Blob([out], { type })), name: `steps.${format === 'json' ? 'json' : 'yaml'}` });
  }

  async function doImport(source: string) {
    const { parse } = await yaml();
    const r = importSteps(source, kind, (t) => parse(t));
    if (!r.ok) {
      setError(r.error);
      setNote(null);
      return;
    }
    setError(null);
    setNote(t('monitors.io.imported', { count: r.steps.length }));
    onImport(r.steps);
  }

  return (
    <details className="sw-steps-io sw-span-2">
      <summary>{t('monitors.io.summary')}</summary>
      <div className="sw-field">
        <label htmlFor="m-steps-io">{t('monitors.io.label')}</label>
        <textarea
          id="m-steps-io"
          rows={8}
          className="sw-mon-code"
          value={text}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'm-steps-io-error' : 'm-steps-io-hint'}
          onChange={(e) => setText(e.target.value)}
        />
        <small className="sw-hint" id="m-steps-io-hint">
          {tr('monitors.io.hint', { code: (chunks) => <code>{chunks}</code> })}
        </small>
        {error && (
          <small className="sw-field-error" role="alert" id="m-steps-io-error">
            {error}
          </small>
        )}
      </div>
      <div className="sw-row sw-steps-io-actions">
        <button type="button" className="sw-btn sw-btn-small" onClick={() => void doImport(text)}>
          {t('monitors.io.fromText')}
        </button>
        <label className="sw-btn sw-btn-small sw-steps-file">
          {t('monitors.io.file')}
          <input
            type="file"
            accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml,text/plain"
            onChange={async (e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              if (file.size > 1_000_000) return setError(t('monitors.io.tooLarge'));
              const content = await file.text();
              setText(content);
              await doImport(content);
            }}
          />
        </label>
        <button type="button" className="sw-btn sw-btn-small" onClick={() => void doExport('json')} disabled={steps.length === 0}>
          {t('monitors.io.exportJson')}
        </button>
        <button type="button" className="sw-btn sw-btn-small" onClick={() => void doExport('yaml')} disabled={steps.length === 0}>
          {t('monitors.io.exportYaml')}
        </button>
        {download && (
          <a className="sw-link" href={download.href} download={download.name}>
            {t('monitors.io.download', { name: download.name })}
          </a>
        )}
      </div>
      <p role="status" className="sw-small">
        {note ?? ''}
      </p>
    </details>
  );
}
