// The schedule editor (company admins): name, time zone, and the layers in order (a later layer
// wins where it has someone), each with its people in rotation order, the first turn's start,
// the hand-off length and optional restrictions. A form, not drag and drop: every control is a
// button or a field, so it works the same with a keyboard, a screen reader and a phone. The
// server judges the values; its message for each field is shown at that field.
import { useState, type FormEvent } from 'react';
import { Field } from '../../ui/Field.tsx';
import { t } from '../../i18n.ts';
import { Options } from '../../ui/ModalForm.tsx';
import { emptyLayer, fieldKeys, handoffs, localErrors, messageAt, moved, payload, unplaced, WEEKDAY_ORDER, weekdays } from './editor.ts';
import type { LayerInput, Outcome, Restriction, Schedule, ScheduleInput } from './store.ts';
import { zoneNames } from '../../../../lib/zoned-time.ts';

interface Person {
  id: string;
  name: string;
}

export function ScheduleEditor(props: {
  initial: ScheduleInput;
  people: readonly Person[];
  submitLabel: string;
  save: (input: ScheduleInput) => Promise<Outcome<Schedule>>;
}) {
  const [f, setF] = useState<ScheduleInput>(props.initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const setLayer = (i: number, patch: Partial<LayerInput>) =>
    setF({ ...f, layers: f.layers.map((l, j) => (j === i ? { ...l, ...patch } : l)) });
  const err = (key: string) => messageAt(errors, key);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local = localErrors(f);
    if (Object.keys(local).length) {
      setErrors(local);
      setAlert(t('onCall.editor.notSaved'));
      return;
    }
    setBusy(true);
    const o = await props.save(payload(f));
    setBusy(false);
    if (o.ok) {
      setErrors({});
      setAlert(null);
      return;
    }
    setErrors(o.fields);
    // the fields show their own messages; the banner says what no field shows
    const rest = unplaced(o.fields, fieldKeys(f));
    const placed = Object.keys(o.fields).length > 0 && rest.length === 0;
    setAlert(placed ? t('onCall.editor.notSaved') : [o.text, ...rest.filter((m) => m !== o.text)].join(' '));
  }

  return (
    <form className="sw-form sw-oncall-editor" onSubmit={(e) => void submit(e)} noValidate aria-label={t('onCall.editor.form')}>
      {alert && (
        <div className="sw-banner sw-banner-error" role="alert">
          {alert}
        </div>
      )}
      <div className="sw-form-grid">
        <Field id="sched-name" label={t('onCall.editor.name')} required error={err('name')}>
          <input
            id="sched-name"
            value={f.name}
            maxLength={100}
            aria-invalid={!!err('name')}
            aria-describedby={err('name') ? 'sched-name-error' : undefined}
            onChange={(e) => setF({ ...f, name: e.target.value })}
          />
        </Field>
        <Field id="sched-zone" label={t('onCall.editor.zone')} required error={err('time_zone')} hint={t('onCall.editor.zoneHint')}>
          <input
            id="sched-zone"
            list="sched-zones"
            value={f.time_zone}
            maxLength={64}
            autoComplete="off"
            aria-invalid={!!err('time_zone')}
            aria-describedby={err('time_zone') ? 'sched-zone-hint sched-zone-error' : 'sched-zone-hint'}
            onChange={(e) => setF({ ...f, time_zone: e.target.value })}
          />
          <datalist id="sched-zones">
            {zoneNames().map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </Field>
      </div>
      <p className="sw-muted">{t('onCall.editor.layersNote')}</p>
      <ol className="sw-oncall-layers">
        {f.layers.map((l, i) => (
          <LayerFields
            key={i}
            i={i}
            count={f.layers.length}
            layer={l}
            zone={f.time_zone}
            people={props.people}
            err={err}
            change={(patch) => setLayer(i, patch)}
            move={(by) => setF({ ...f, layers: moved(f.layers, i, by) })}
            remove={() => setF({ ...f, layers: f.layers.filter((_, j) => j !== i) })}
          />
        ))}
      </ol>
      {err('layers') && !err('layers.0') && (
        <p className="sw-field-error" role="alert">
          {errors.layers}
        </p>
      )}
      <div className="sw-row">
        <button
          type="button"
          className="sw-btn"
          disabled={f.layers.length >= 10}
          onClick={() => setF({ ...f, layers: [...f.layers, emptyLayer(f.time_zone || 'UTC', Date.now())] })}
        >
          {t('onCall.editor.addLayer')}
        </button>
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}

function LayerFields(p: {
  i: number;
  count: number;
  layer: LayerInput;
  zone: string;
  people: readonly Person[];
  err: (key: string) => string | undefined;
  change: (patch: Partial<LayerInput>) => void;
  move: (by: -1 | 1) => void;
  remove: () => void;
}) {
  const { i, layer, err } = p;
  const at = `layers.${i}`;
  const id = `layer-${i}`;
  const title = layer.name?.trim() || t('onCall.timeline.layer', { n: i + 1 });
  const [adding, setAdding] = useState(p.people[0]?.id ?? '');
  const nameOf = (uid: string) => p.people.find((x) => x.id === uid)?.name ?? t('onCall.editor.formerMember');
  const restrictions = layer.restrictions ?? [];
  const setRestriction = (j: number, patch: Partial<Restriction>) =>
    p.change({ restrictions: restrictions.map((r, k) => (k === j ? { ...r, ...patch } : r)) });
  return (
    <li className="sw-card sw-oncall-layer" aria-labelledby={`${id}-title`}>
      <div className="sw-row-between">
        <h3 id={`${id}-title`}>{title}</h3>
        <div className="sw-row">
          <button
            type="button"
            className="sw-btn sw-btn-small"
            disabled={i === 0}
            aria-label={t('onCall.editor.moveUp', { title })}
            onClick={() => p.move(-1)}
          >
            {t('onCall.editor.up')}
          </button>
          <button
            type="button"
            className="sw-btn sw-btn-small"
            disabled={i === p.count - 1}
            aria-label={t('onCall.editor.moveDown', { title })}
            onClick={() => p.move(1)}
          >
            {t('onCall.editor.down')}
          </button>
          <button
            type="button"
            className="sw-btn sw-btn-small sw-btn-danger"
            aria-label={t('onCall.editor.removeLayer', { title })}
            onClick={p.remove}
          >
            {t('onCall.editor.remove')}
          </button>
        </div>
      </div>
      <div className="sw-form-grid">
        <Field
          id={`${id}-name`}
          label={t('onCall.editor.layerName')}
          error={err(`${at}.name`)}
          hint={t('onCall.editor.layerNameHint', { n: i + 1 })}
        >
          <input id={`${id}-name`} value={layer.name ?? ''} maxLength={100} onChange={(e) => p.change({ name: e.target.value })} />
        </Field>
        <Field
          id={`${id}-start`}
          label={t('onCall.editor.rotationStarts', { zone: p.zone || t('onCall.editor.scheduleZone') })}
          required
          error={err(`${at}.rotation_start`)}
        >
          <input
            id={`${id}-start`}
            type="datetime-local"
            value={layer.rotation_start}
            onChange={(e) => p.change({ rotation_start: e.target.value })}
          />
        </Field>
        <Field id={`${id}-handoff`} label={t('onCall.editor.handoff')} required error={err(`${at}.handoff`)}>
          <select
            id={`${id}-handoff`}
            value={layer.handoff}
            onChange={(e) => p.change({ handoff: e.target.value as LayerInput['handoff'] })}
          >
            <Options items={handoffs()} />
          </select>
        </Field>
        {layer.handoff === 'custom' && (
          <Field id={`${id}-hours`} label={t('onCall.editor.hours')} required error={err(`${at}.handoff_hours`)}>
            <input
              id={`${id}-hours`}
              type="number"
              min={1}
              max={2016}
              step={1}
              value={layer.handoff_hours ?? ''}
              onChange={(e) => p.change({ handoff_hours: Number.isNaN(e.target.valueAsNumber) ? null : e.target.valueAsNumber })}
            />
          </Field>
        )}
      </div>
      <fieldset className="sw-fieldset" aria-describedby={err(`${at}.user_ids`) ? `${id}-people-error` : undefined}>
        <legend>{t('onCall.editor.people')}</legend>
        {layer.user_ids.length === 0 && <p className="sw-muted">{t('onCall.editor.nobodyYet')}</p>}
        <ol className="sw-oncall-people">
          {layer.user_ids.map((uid, k) => (
            <li key={`${uid}-${k}`} className="sw-row-between">
              <span>{t('onCall.editor.personAt', { n: k + 1, name: nameOf(uid) })}</span>
              <span className="sw-row">
                <button
                  type="button"
                  className="sw-btn sw-btn-small"
                  disabled={k === 0}
                  aria-label={t('onCall.editor.moveEarlier', { name: nameOf(uid), title })}
                  onClick={() => p.change({ user_ids: moved(layer.user_ids, k, -1) })}
                >
                  {t('onCall.editor.earlier')}
                </button>
                <button
                  type="button"
                  className="sw-btn sw-btn-small"
                  aria-label={t('onCall.editor.removePerson', { name: nameOf(uid), title })}
                  onClick={() => p.change({ user_ids: layer.user_ids.filter((_, j) => j !== k) })}
                >
                  {t('onCall.editor.remove')}
                </button>
              </span>
            </li>
          ))}
        </ol>
        <div className="sw-row">
          <label htmlFor={`${id}-add-person`} className="sw-visually-hidden">
            {t('onCall.editor.personToAdd', { title })}
          </label>
          <select id={`${id}-add-person`} value={adding} onChange={(e) => setAdding(e.target.value)}>
            <Options items={p.people.map((x) => [x.id, x.name] as const)} />
          </select>
          <button
            type="button"
            className="sw-btn sw-btn-small"
            disabled={!adding || layer.user_ids.length >= 50}
            onClick={() => p.change({ user_ids: [...layer.user_ids, adding] })}
          >
            {t('onCall.editor.addPerson')}
          </button>
        </div>
        {err(`${at}.user_ids`) && (
          <p className="sw-field-error" role="alert" id={`${id}-people-error`}>
            {err(`${at}.user_ids`)}
          </p>
        )}
      </fieldset>
      <fieldset className="sw-fieldset">
        <legend>{t('onCall.editor.restrictions')}</legend>
        <p className="sw-hint">{t('onCall.editor.restrictionsHint')}</p>
        {restrictions.map((r, j) => (
          <RestrictionFields
            key={j}
            id={`${id}-r${j}`}
            label={t('onCall.editor.restriction', { n: j + 1, title })}
            r={r}
            error={err(`${at}.restrictions.${j}`)}
            change={(patch) => setRestriction(j, patch)}
            remove={() => p.change({ restrictions: restrictions.filter((_, k) => k !== j) })}
          />
        ))}
        {err(`${at}.restrictions`) && !restrictions.some((_, j) => err(`${at}.restrictions.${j}`)) && (
          <p className="sw-field-error" role="alert">
            {err(`${at}.restrictions`)}
          </p>
        )}
        <button
          type="button"
          className="sw-btn sw-btn-small"
          disabled={restrictions.length >= 14}
          onClick={() =>
            p.change({ restrictions: [...restrictions, { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '18:00' }] })
          }
        >
          {t('onCall.editor.addRestriction')}
        </button>
      </fieldset>
    </li>
  );
}

function RestrictionFields(p: {
  id: string;
  label: string;
  r: Restriction;
  error: string | undefined;
  change: (patch: Partial<Restriction>) => void;
  remove: () => void;
}) {
  const toggle = (day: Restriction['days'][number], on: boolean) =>
    p.change({ days: WEEKDAY_ORDER.filter((d) => (d === day ? on : p.r.days.includes(d))) });
  return (
    <fieldset className="sw-fieldset sw-oncall-restriction">
      <legend>{p.label}</legend>
      <div className="sw-row sw-oncall-days">
        {weekdays().map(([d, label]) => (
          <label key={d} className="sw-check">
            <input type="checkbox" checked={p.r.days.includes(d)} onChange={(e) => toggle(d, e.target.checked)} />
            {label}
          </label>
        ))}
      </div>
      <div className="sw-row">
        <label htmlFor={`${p.id}-from`}>{t('onCall.editor.from')}</label>
        <input
          id={`${p.id}-from`}
          className="sw-oncall-hhmm"
          value={p.r.start}
          inputMode="numeric"
          placeholder="09:00"
          maxLength={5}
          onChange={(e) => p.change({ start: e.target.value })}
        />
        <label htmlFor={`${p.id}-to`}>{t('onCall.editor.to')}</label>
        <input
          id={`${p.id}-to`}
          className="sw-oncall-hhmm"
          value={p.r.end}
          inputMode="numeric"
          placeholder="18:00"
          maxLength={5}
          onChange={(e) => p.change({ end: e.target.value })}
        />
        <button
          type="button"
          className="sw-btn sw-btn-small"
          aria-label={t('onCall.editor.removeRestriction', { label: p.label })}
          onClick={p.remove}
        >
          {t('onCall.editor.remove')}
        </button>
      </div>
      {p.error && (
        <p className="sw-field-error" role="alert">
          {p.error}
        </p>
      )}
    </fieldset>
  );
}
