// Several monitors chosen by checkbox (incidents and maintenance windows affect any number of
// them); the list scrolls inside the dialog and a text box narrows a long one.
import { useState } from 'react';
import { t } from '../i18n.ts';

export interface MonitorChoice {
  id: string;
  name: string;
}

export function MonitorChecklist(props: {
  id: string;
  legend: string;
  hint: string;
  options: MonitorChoice[];
  chosen: string[];
  onChange: (ids: string[]) => void;
  error?: string;
}) {
  const [filter, setFilter] = useState('');
  const shown = props.options
    .filter((o) => o.name.toLowerCase().includes(filter.trim().toLowerCase()))
    .sort((a, b) => a.name.localeCompare(b.name));
  const toggle = (id: string, on: boolean) =>
    props.onChange(on ? [...props.chosen.filter((x) => x !== id), id] : props.chosen.filter((x) => x !== id));
  return (
    <fieldset className="sw-field sw-checklist" aria-describedby={`${props.id}-hint`}>
      <legend>{props.legend}</legend>
      {props.options.length > 8 && (
        <input
          type="search"
          aria-label={t('ui.monitorChecklist.findAMonitorFor', { legend: props.legend.toLowerCase() })}
          placeholder={t('ui.monitorChecklist.findAMonitor')}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      )}
      <div className="sw-checklist-box" data-testid={props.id}>
        {props.options.length === 0 && <p className="sw-muted sw-small">{t('ui.monitorChecklist.noMonitorsYet')}</p>}
        {shown.map((o) => (
          <label key={o.id} className="sw-check">
            <input type="checkbox" checked={props.chosen.includes(o.id)} onChange={(e) => toggle(o.id, e.target.checked)} />
            {o.name}
          </label>
        ))}
      </div>
      <small className="sw-hint" id={`${props.id}-hint`}>
        {props.chosen.length ? `${t('ui.monitorChecklist.chosen', { count: props.chosen.length })} ` : ''}
        {props.hint}
      </small>
      {props.error && (
        <small className="sw-field-error" role="alert">
          {props.error}
        </small>
      )}
    </fieldset>
  );
}
