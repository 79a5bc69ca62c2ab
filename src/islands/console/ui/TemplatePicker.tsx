// "Use template": fills the incident or maintenance form from one of the company's templates
// (the form stays editable; nothing is sent until it is saved). Hidden when there are none.
import { useState } from 'react';
import type { IncidentTemplate } from '../stores/incident-templates.ts';
import { Field } from './Field.tsx';
import { t } from '../i18n.ts';

export function TemplatePicker(props: { id: string; templates: IncidentTemplate[]; onPick: (t: IncidentTemplate) => void }) {
  const [chosen, setChosen] = useState('');
  if (props.templates.length === 0) return null;
  return (
    <div className="sw-span-2">
      <Field
        id={props.id}
        label={t('ui.templatePicker.useTemplate')}
        hint={
          <>
            {t('ui.templatePicker.fillsInTheFormBelow')}
            <a className="sw-link" href="/settings/incident-templates">
              {t('ui.templatePicker.templates')}
            </a>
          </>
        }
      >
        <select
          id={props.id}
          value={chosen}
          onChange={(e) => {
            setChosen(e.target.value);
            const t = props.templates.find((x) => x.id === e.target.value);
            if (t) props.onPick(t);
          }}
        >
          <option value="">{t('ui.templatePicker.noTemplate')}</option>
          {props.templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}
