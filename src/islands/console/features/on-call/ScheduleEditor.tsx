// The schedule editor (company admins): name, time zone, and the layers in order (a later layer
// wins where it has someone), each with its people in rotation order, the first turn's start,
// the hand-off length and optional restrictions. A form, not drag and drop: every control is a
// button or a field, so it works the same with a keyboard, a screen reader and a phone. The
// server judges the values; its message for each field is shown at that field.
import { useState, type FormEvent } from 'react';
import { Field } from '../../ui/Field.tsx';
import { Options } from '../../ui/ModalForm.tsx';
import { emptyLayer, fieldKeys, HANDOFFS, localErrors, messageAt, moved, payload, unplaced, WEEKDAYS } from './editor.ts';
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
      setAlert('The schedule was not saved: see the messages at the fields below.');
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
    setAlert(
      placed
        ? 'The schedule was not saved: see the messages at the fields below.'
        : [o.text, ...rest.filter((m) => m !== o.text)].join(' '),
    );
  }

  return (
    <form className="sw-form sw-oncall-editor" onSubmit={(e) => void submit(e)} noValidate aria-label="Schedule">
      {alert && (
        <div className="sw-banner sw-banner-error" role="alert">
          {alert}
        </div>
      )}
      <div className="sw-form-grid">
        <Field id="sched-name" label="Schedule name" required error={err('name')}>
          <input
            id="sched-name"
            value={f.name}
            maxLength={100}
            aria-invalid={!!err('name')}
            aria-describedby={err('name') ? 'sched-name-error' : undefined}
            onChange={(e) => setF({ ...f, name: e.target.value })}
          />
        </Field>
        <Field id="sched-zone" label="Time zone" required error={err('time_zone')} hint="Type to search, e.g. Berlin or New_York">
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
      <p className="sw-muted">Layers in order: where a later layer has someone, it wins over the ones above it.</p>
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
          Add layer
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
  const title = layer.name?.trim() || `Layer ${i + 1}`;
  const [adding, setAdding] = useState(p.people[0]?.id ?? '');
  const nameOf = (uid: string) => p.people.find((x) => x.id === uid)?.name ?? 'A former member';
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
            aria-label={`Move ${title} up`}
            onClick={() => p.move(-1)}
          >
            Up
          </button>
          <button
            type="button"
            className="sw-btn sw-btn-small"
            disabled={i === p.count - 1}
            aria-label={`Move ${title} down`}
            onClick={() => p.move(1)}
          >
            Down
          </button>
          <button type="button" className="sw-btn sw-btn-small sw-btn-danger" aria-label={`Remove ${title}`} onClick={p.remove}>
            Remove
          </button>
        </div>
      </div>
      <div className="sw-form-grid">
        <Field id={`${id}-name`} label="Layer name" error={err(`${at}.name`)} hint={`Optional (default: Layer ${i + 1})`}>
          <input id={`${id}-name`} value={layer.name ?? ''} maxLength={100} onChange={(e) => p.change({ name: e.target.value })} />
        </Field>
        <Field
          id={`${id}-start`}
          label={`Rotation starts (${p.zone || 'the schedule’s zone'})`}
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
        <Field id={`${id}-handoff`} label="Hand-off" required error={err(`${at}.handoff`)}>
          <select
            id={`${id}-handoff`}
            value={layer.handoff}
            onChange={(e) => p.change({ handoff: e.target.value as LayerInput['handoff'] })}
          >
            <Options items={HANDOFFS} />
          </select>
        </Field>
        {layer.handoff === 'custom' && (
          <Field id={`${id}-hours`} label="Hours per turn" required error={err(`${at}.handoff_hours`)}>
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
        <legend>People, in turn order</legend>
        {layer.user_ids.length === 0 && <p className="sw-muted">Nobody yet.</p>}
        <ol className="sw-oncall-people">
          {layer.user_ids.map((uid, k) => (
            <li key={`${uid}-${k}`} className="sw-row-between">
              <span>
                {k + 1}. {nameOf(uid)}
              </span>
              <span className="sw-row">
                <button
                  type="button"
                  className="sw-btn sw-btn-small"
                  disabled={k === 0}
                  aria-label={`Move ${nameOf(uid)} earlier in ${title}`}
                  onClick={() => p.change({ user_ids: moved(layer.user_ids, k, -1) })}
                >
                  Earlier
                </button>
                <button
                  type="button"
                  className="sw-btn sw-btn-small"
                  aria-label={`Remove ${nameOf(uid)} from ${title}`}
                  onClick={() => p.change({ user_ids: layer.user_ids.filter((_, j) => j !== k) })}
                >
                  Remove
                </button>
              </span>
            </li>
          ))}
        </ol>
        <div className="sw-row">
          <label htmlFor={`${id}-add-person`} className="sw-visually-hidden">
            Person to add to {title}
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
            Add person
          </button>
        </div>
        {err(`${at}.user_ids`) && (
          <p className="sw-field-error" role="alert" id={`${id}-people-error`}>
            {err(`${at}.user_ids`)}
          </p>
        )}
      </fieldset>
      <fieldset className="sw-fieldset">
        <legend>Restrictions</legend>
        <p className="sw-hint">
          None: the layer has someone all the time. With some, only inside them (time of day in the schedule’s zone).
        </p>
        {restrictions.map((r, j) => (
          <RestrictionFields
            key={j}
            id={`${id}-r${j}`}
            label={`Restriction ${j + 1} of ${title}`}
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
          Add restriction
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
    p.change({ days: WEEKDAYS.map(([d]) => d).filter((d) => (d === day ? on : p.r.days.includes(d))) });
  return (
    <fieldset className="sw-fieldset sw-oncall-restriction">
      <legend>{p.label}</legend>
      <div className="sw-row sw-oncall-days">
        {WEEKDAYS.map(([d, label]) => (
          <label key={d} className="sw-check">
            <input type="checkbox" checked={p.r.days.includes(d)} onChange={(e) => toggle(d, e.target.checked)} />
            {label}
          </label>
        ))}
      </div>
      <div className="sw-row">
        <label htmlFor={`${p.id}-from`}>From</label>
        <input
          id={`${p.id}-from`}
          className="sw-oncall-hhmm"
          value={p.r.start}
          inputMode="numeric"
          placeholder="09:00"
          maxLength={5}
          onChange={(e) => p.change({ start: e.target.value })}
        />
        <label htmlFor={`${p.id}-to`}>to</label>
        <input
          id={`${p.id}-to`}
          className="sw-oncall-hhmm"
          value={p.r.end}
          inputMode="numeric"
          placeholder="18:00"
          maxLength={5}
          onChange={(e) => p.change({ end: e.target.value })}
        />
        <button type="button" className="sw-btn sw-btn-small" aria-label={`Remove ${p.label}`} onClick={p.remove}>
          Remove
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
