// A company logo in the tenant form and the company settings: preview, choose a PNG, JPEG or WebP
// file (512 KB at most, checked here for a quick message and by content on the server), or remove it.
import { useId, useState } from 'react';
import { logoProblem } from './logo.ts';
import { t } from '../i18n.ts';

export function LogoField(props: { label: string; value: string | null; onChange: (dataUrl: string | null) => void }) {
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  function choose(file: File | undefined) {
    if (!file) return;
    const p = logoProblem(file, props.label);
    setProblem(p);
    if (p) return;
    const reader = new FileReader();
    reader.onload = () => props.onChange(String(reader.result));
    reader.onerror = () => setProblem(`${props.label} could not be read.`);
    reader.readAsDataURL(file);
  }
  return (
    <div className="sw-field">
      <label htmlFor={id}>{props.label}</label>
      <div className="sw-logo-row">
        {props.value ? (
          <img className="sw-logo-preview" src={props.value} alt={t('ui.logoField.preview', { label: props.label })} />
        ) : (
          <span className="sw-muted sw-small">{t('ui.logoField.none')}</span>
        )}
        {props.value && (
          <button
            type="button"
            className="sw-btn sw-btn-small"
            onClick={() => {
              setProblem(null);
              props.onChange(null);
            }}
          >
            {t('ui.logoField.remove', { label: props.label.toLowerCase() })}
          </button>
        )}
      </div>
      <input
        id={id}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        onChange={(e) => choose(e.target.files?.[0])}
        aria-describedby={`${id}-hint`}
      />
      <small className="sw-hint" id={`${id}-hint`}>
        {t('ui.logoField.pNGJPEGOrWebP512')}
      </small>
      {problem && (
        <small className="sw-field-error" role="alert">
          {problem}
        </small>
      )}
    </div>
  );
}
