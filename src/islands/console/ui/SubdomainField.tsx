// A subdomain input that says, while the user types, whether the subdomain is valid and free and
// which address it gives (issue 25 item 4): the signup form and the company settings' address.
// Asked of the server a moment after typing stops; an answer to an older value is dropped.
import { useEffect, useState } from 'react';
import type { components } from '../../../api/schema.d.ts';
import { api, detailOr } from '../api.ts';
import { boot } from '../boot.ts';
import { Field } from './Field.tsx';
import { t, tr } from '../i18n.ts';

type Availability = components['schemas']['SubdomainAvailability'];
type State =
  | { kind: 'idle' }
  | { kind: 'checking'; subdomain: string }
  | { kind: 'done'; result: Availability }
  | { kind: 'failed'; text: string };

/** Waiting this long after the last keystroke keeps the check to a few calls per form. */
const DEBOUNCE_MS = 300;

export function SubdomainField(props: {
  id: string;
  label?: string;
  value: string;
  onChange: (value: string) => void;
  /** The company's subdomain now (settings): not checked, shown as the current address */
  current?: string | null;
  currentAddress?: string | null;
  error?: string;
  required?: boolean;
  /** Mark the label with the form's required asterisk (forms that mark their required fields) */
  markRequired?: boolean;
}) {
  const { value, current } = props;
  const [state, setState] = useState<State>({ kind: 'idle' });
  useEffect(() => {
    const subdomain = value.trim().toLowerCase();
    if (!subdomain || subdomain === current) return setState({ kind: 'idle' });
    const ctl = new AbortController();
    setState({ kind: 'checking', subdomain });
    const timer = setTimeout(async () => {
      try {
        const { data, error } = await api.GET('/api/v1/auth/subdomain-availability', {
          params: { query: { subdomain } },
          signal: ctl.signal,
        });
        if (ctl.signal.aborted) return;
        setState(
          data ? { kind: 'done', result: data } : { kind: 'failed', text: detailOr(error, t('ui.subdomainField.theSubdomainCouldNotBe')) },
        );
      } catch (e) {
        if (!ctl.signal.aborted) setState({ kind: 'failed', text: detailOr(e, t('ui.subdomainField.theSubdomainCouldNotBe')) });
      }
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [value, current]);
  const status = (() => {
    if (state.kind === 'checking') return <span>{t('ui.subdomainField.checking', { subdomain: state.subdomain })}</span>;
    if (state.kind === 'failed') return <span className="sw-field-error">{state.text}</span>;
    if (state.kind === 'done')
      return state.result.available ? (
        <span className="sw-sub-ok">{tr('ui.subdomainField.available', { address: <strong>{state.result.address}</strong> })}</span>
      ) : (
        <span className="sw-field-error">{state.result.message}</span>
      );
    if (current && props.currentAddress)
      return <span>{t('ui.subdomainField.currentAddress', { currentAddress: props.currentAddress })}</span>;
    return <span>{t('ui.subdomainField.lowercaseLettersDigitsAndHyphens', { productDomain: boot().productDomain })}</span>;
  })();
  return (
    <Field id={props.id} label={props.label ?? t('ui.subdomainField.subdomain')} required={props.markRequired} error={props.error}>
      <input
        id={props.id}
        name="subdomain"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        required={props.required}
        maxLength={63}
        value={value}
        aria-describedby={`${props.id}-status`}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <small className="sw-hint sw-sub-status" id={`${props.id}-status`} aria-live="polite" data-testid="subdomain-status">
        {status}
      </small>
    </Field>
  );
}
