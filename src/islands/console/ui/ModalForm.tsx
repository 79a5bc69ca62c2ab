// What every modal form of the console does the same way: the form's values and field messages
// (a field's message goes when it is edited), validation before sending with the submit button
// disabled meanwhile, the refusal banner above the fields, the Cancel/submit row, the options
// of a select.
import { useState, type ReactNode } from 'react';
import { clearErrors, type FieldErrors } from './form-errors.ts';
import { t } from '../i18n.ts';

export function useModalForm<F extends object>(initial: F | (() => F)) {
  const [f, setF] = useState<F>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  /** The form with `patch` applied; the message of `field` goes. */
  const edit = (patch: Partial<F>, field: keyof F & string) => {
    setF({ ...f, ...patch });
    setErrors((v) => clearErrors(v, field));
  };
  /** Shows the messages of a failed validation, else sends with the form busy; undefined when not sent. */
  async function send<T>(validation: FieldErrors, request: () => Promise<T>): Promise<T | undefined> {
    setErrors(validation);
    if (Object.keys(validation).length) return undefined;
    setBusy(true);
    const outcome = await request();
    setBusy(false);
    return outcome;
  }
  return { f, setF, errors, setErrors, busy, edit, send };
}

/** The reason the server refused the form, across both columns of the form's grid. */
export function FormAlert({ text }: { text: string | null | undefined }) {
  return text ? (
    <div className="sw-banner sw-banner-error sw-span-2" role="alert">
      {text}
    </div>
  ) : null;
}

export function ModalActions(props: { onClose: () => void; busy: boolean; submitLabel: ReactNode; closeLabel?: string }) {
  return (
    <div className="sw-modal-actions sw-span-2">
      <button type="button" className="sw-btn" onClick={props.onClose}>
        {props.closeLabel ?? t('ui.modal.cancel')}
      </button>
      <button type="submit" className="sw-btn sw-btn-primary" disabled={props.busy}>
        {props.submitLabel}
      </button>
    </div>
  );
}

/** The <option>s of a select, as [value, label] pairs. */
export function Options({ items }: { items: ReadonlyArray<readonly [value: string, label: string]> }) {
  return items.map(([value, text]) => (
    <option key={value} value={value}>
      {text}
    </option>
  ));
}
