// One request of an api_flow monitor: name, method, URL, headers, body, its assertions and its
// extractions. Headers are typed as "Name: value" lines and kept as typed (a half-written line is
// not turned into an object and back while the user types).
import { useState } from 'react';
import { parsePairs } from '../../../../../lib/kind-forms/field.ts';
import { t } from '../../../i18n.ts';
import { Field } from '../../../ui/Field.tsx';
import { AssertionRows, ExtractionRows } from './AssertionRows.tsx';
import { API_METHODS, type ApiFlowStep } from './model.ts';

interface Props {
  step: ApiFlowStep;
  /** id prefix: m-steps-<index> */
  idBase: string;
  label: string;
  errors: Record<string, string>;
  onChange(step: ApiFlowStep): void;
}

const headerText = (h: ApiFlowStep['headers']) =>
  Object.entries(h ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

export function ApiStepForm({ step, idBase, label, errors, onChange }: Props) {
  const [headers, setHeaders] = useState(() => headerText(step.headers));
  const set = (patch: Partial<ApiFlowStep>) => onChange({ ...step, ...patch });
  const text = (field: 'name' | 'url', title: string, placeholder: string, required = true) => (
    <Field id={`${idBase}-${field}`} label={title} required={required} error={errors[field]}>
      <input
        id={`${idBase}-${field}`}
        value={step[field] ?? ''}
        placeholder={placeholder}
        aria-invalid={errors[field] ? true : undefined}
        aria-describedby={errors[field] ? `${idBase}-${field}-error` : undefined}
        onChange={(e) => set({ [field]: e.target.value })}
      />
    </Field>
  );
  return (
    <div className="sw-steps-fields">
      {text('name', t('monitors.steps.name'), t('monitors.steps.namePlaceholder'))}
      <Field id={`${idBase}-method`} label={t('monitors.form.method')} error={errors.method}>
        <select
          id={`${idBase}-method`}
          value={step.method ?? 'GET'}
          onChange={(e) => set({ method: e.target.value as ApiFlowStep['method'] })}
        >
          {API_METHODS.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
      </Field>
      <div className="sw-span-2">{text('url', t('monitors.form.url'), 'https://shop.example.com/api/login')}</div>
      <Field
        id={`${idBase}-headers`}
        label={t('monitors.form.headers')}
        error={errors.headers ?? Object.entries(errors).find(([k]) => k.startsWith('headers.'))?.[1]}
        hint={t('monitors.steps.headersHint')}
      >
        <textarea
          id={`${idBase}-headers`}
          rows={2}
          value={headers}
          aria-describedby={`${idBase}-headers-hint`}
          onChange={(e) => {
            setHeaders(e.target.value);
            const h = parsePairs(e.target.value);
            set({ headers: Object.keys(h).length ? h : undefined });
          }}
        />
      </Field>
      <Field id={`${idBase}-body`} label={t('monitors.steps.body')} error={errors.body}>
        <textarea
          id={`${idBase}-body`}
          rows={2}
          value={step.body ?? ''}
          placeholder='{"email": "{{secrets.SHOP_USER}}"}'
          onChange={(e) => set({ body: e.target.value || null })}
        />
      </Field>
      <div className="sw-span-2">
        <AssertionRows
          idBase={idBase}
          stepLabel={label}
          rows={step.assertions ?? []}
          errors={errors}
          onChange={(assertions) => set({ assertions })}
        />
      </div>
      <div className="sw-span-2">
        <ExtractionRows
          idBase={idBase}
          stepLabel={label}
          rows={step.extract ?? []}
          errors={errors}
          onChange={(extract) => set({ extract })}
        />
      </div>
    </div>
  );
}
