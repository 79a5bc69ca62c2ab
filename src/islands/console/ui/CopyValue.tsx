// A secret shown once (a new API or probe token, the two-factor key), with a copy button.
import { useState } from 'react';
import './copy-value.css';
import { t } from '../i18n.ts';

/**
 * A secret shown once, with a button that copies it. A read-only textarea, not an input: the
 * whole value wraps into view (an input scrolled it sideways) and its lines are tall enough for
 * the underscores, which a one-line input cut off at 100 % zoom.
 */
export function CopyValue({ id, label, value }: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="sw-copy">
      <label htmlFor={id}>{label}</label>
      <div className="sw-copy-row">
        <textarea
          id={id}
          readOnly
          rows={2}
          value={value}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
          className="sw-mono sw-secret-field"
        />
        <button
          type="button"
          className="sw-btn sw-btn-small"
          onClick={() =>
            void navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? t('ui.copyValue.copied') : t('ui.copyValue.copy')}
        </button>
      </div>
    </div>
  );
}
