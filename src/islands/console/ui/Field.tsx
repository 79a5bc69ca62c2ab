// A labelled form field with its validation message.
import type { ReactNode } from 'react';

export function Field(props: { label: string; required?: boolean; error?: string; hint?: ReactNode; children: ReactNode; id: string }) {
  return (
    <div className="sw-field">
      <label htmlFor={props.id}>
        {props.label}
        {props.required && (
          <span aria-hidden="true" className="sw-req">
            {' '}
            *
          </span>
        )}
      </label>
      {props.children}
      {props.hint && (
        <small className="sw-hint" id={props.id + '-hint'}>
          {props.hint}
        </small>
      )}
      {props.error && (
        <small className="sw-field-error" role="alert" id={props.id + '-error'}>
          {props.error}
        </small>
      )}
    </div>
  );
}
