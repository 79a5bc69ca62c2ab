// The inputs of a kind's declared fields (src/lib/kind-forms/): drawn from the declaration, so a
// new kind's form needs no code here. Ids are `m-<field>` like the hand-drawn inputs, so the
// server's per-field messages land beside them.
import { KIND_FIELD_SPECS, type KindField, type KindFieldValue } from '../../../../lib/kind-forms/index.ts';
import { kindFieldWords } from '../../form-words.ts';
import { Field } from '../../ui/Field.tsx';

interface Props {
  /** the kind's fields in the order shown; those not declared are drawn elsewhere */
  fields: readonly string[];
  values: Record<string, KindFieldValue>;
  errors: Record<string, string>;
  onChange(field: string, value: KindFieldValue): void;
}

export function DeclaredFields({ fields, values, errors, onChange }: Props) {
  return (
    <>
      {fields
        .filter((name) => KIND_FIELD_SPECS[name])
        .map((name) => (
          <DeclaredField
            key={name}
            name={name}
            spec={KIND_FIELD_SPECS[name]}
            value={values[name]}
            error={errors[name]}
            onChange={onChange}
          />
        ))}
    </>
  );
}

function DeclaredField(props: {
  name: string;
  spec: KindField;
  value: KindFieldValue | undefined;
  error?: string;
  onChange: Props['onChange'];
}) {
  const { name, spec, error, onChange } = props;
  const id = `m-${name}`;
  // the declaration's English is the server's; what is shown comes from the catalogue by the field's id
  const words = kindFieldWords(name, spec);
  const described = error ? `${id}-error` : words.hint ? `${id}-hint` : undefined;
  if (spec.input === 'checkbox')
    return (
      <label className="sw-check">
        <input id={id} type="checkbox" checked={props.value === true} onChange={(e) => onChange(name, e.target.checked)} /> {words.label}
        {error && (
          <small className="sw-field-error" role="alert" id={`${id}-error`}>
            {' '}
            {error}
          </small>
        )}
      </label>
    );
  const text = typeof props.value === 'string' ? props.value : '';
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described,
  } as const;
  let control;
  if (spec.input === 'select')
    control = (
      <select {...common} value={text} onChange={(e) => onChange(name, e.target.value)}>
        {!spec.required && !spec.default && <option value="">—</option>}
        {(spec.options ?? []).map((o) => (
          <option key={o} value={o}>
            {words.option(o)}
          </option>
        ))}
      </select>
    );
  else if (spec.input === 'lines' || spec.input === 'pairs')
    control = (
      <textarea {...common} rows={2} value={text} placeholder={words.placeholder} onChange={(e) => onChange(name, e.target.value)} />
    );
  else
    control = (
      <input
        {...common}
        type={spec.input === 'number' ? 'number' : spec.input === 'secret' ? 'password' : 'text'}
        autoComplete={spec.input === 'secret' ? 'new-password' : undefined}
        value={text}
        placeholder={words.placeholder}
        onChange={(e) => onChange(name, e.target.value)}
      />
    );
  return (
    <Field id={id} label={words.label} required={spec.required} error={error} hint={words.hint}>
      {control}
    </Field>
  );
}
