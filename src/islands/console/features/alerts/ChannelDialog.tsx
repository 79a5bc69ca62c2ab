// The create/edit dialog of an alert channel: type (fixed once created), the type's config fields
// (secrets as password inputs; on edit an empty one keeps the stored value), events, monitors,
// minimum severity and enabled; the server's per-field messages beside their fields.
import { useStore } from '@nanostores/react';
import { useState, type FormEvent } from 'react';
import { channelFieldWords, channelTypeLabel } from '../../form-words.ts';
import { t, tr } from '../../i18n.ts';
import { Field } from '../../ui/Field.tsx';
import { clearErrors } from '../../ui/form-errors.ts';
import { Modal } from '../../ui/Modal.tsx';
import { CHANNEL_TYPES, EVENTS, SEVERITIES, TYPE_NAMES, type ChannelType } from './channel-types.ts';
import {
  $alertMonitors,
  createChannel,
  emptyChannel,
  formOf,
  updateChannel,
  validateChannel,
  type Channel,
  type ChannelForm,
  type ChannelWithSecret,
} from './store.ts';

export function ChannelDialog(props: { channel: Channel | null; tenant: string | null; onClose: (created?: ChannelWithSecret) => void }) {
  const { channel, tenant } = props;
  const editing = channel !== null;
  const monitors = useStore($alertMonitors);
  const [f, setF] = useState<ChannelForm>(channel ? formOf(channel) : emptyChannel());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const edit = (patch: Partial<ChannelForm>, ...fields: string[]) => {
    setF((old) => ({ ...old, ...patch }));
    setErrors((v) => clearErrors(v, ...fields));
  };
  const setConfig = (key: string, value: string) => edit({ config: { ...f.config, [key]: value } }, `config.${key}`, 'config');
  const toggle = <T,>(list: T[], item: T, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const v = validateChannel(f, editing);
    setErrors(v);
    setAlert(null);
    if (Object.keys(v).length) return;
    setBusy(true);
    const o = channel ? await updateChannel(channel.id, f, tenant) : await createChannel(f, tenant);
    setBusy(false);
    if (o.ok) return props.onClose(channel ? undefined : (o.data as ChannelWithSecret));
    setAlert(o.text);
    setErrors(o.fields);
  }

  return (
    <Modal title={editing ? t('alerts.editOne', { name: channel.name }) : t('alerts.form.newTitle')} onClose={() => props.onClose()} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        {alert && (
          <div className="sw-banner sw-banner-error sw-span-2" role="alert">
            {alert}
          </div>
        )}
        <Field id="ch-name" label={t('alerts.form.name')} required error={errors.name}>
          <input id="ch-name" value={f.name} maxLength={100} onChange={(e) => edit({ name: e.target.value }, 'name')} />
        </Field>
        <Field
          id="ch-type"
          label={t('alerts.col.type')}
          required
          error={errors.type}
          hint={editing ? t('alerts.form.typeFixed') : undefined}
        >
          <select
            id="ch-type"
            value={f.type}
            disabled={editing}
            onChange={(e) => edit({ type: e.target.value as ChannelType, config: {} }, 'type', 'config')}
          >
            {TYPE_NAMES.map((type) => (
              <option key={type} value={type}>
                {channelTypeLabel(type)}
              </option>
            ))}
          </select>
        </Field>
        {errors.config && (
          <p className="sw-field-error sw-span-2" role="alert">
            {errors.config}
          </p>
        )}
        {CHANNEL_TYPES[f.type].fields.map((field) => {
          const id = `ch-config-${field.key}`;
          const keep = editing && field.secret;
          // the declaration's English is the server's; what is shown comes from the catalogue by the field's key
          const words = channelFieldWords(f.type, field);
          const hint = keep ? t('alerts.form.keepSecret') : words.hint;
          return (
            <div
              key={field.key}
              className={field.input === 'lines' || field.input === 'multiline' || field.key === 'url' ? 'sw-span-2' : undefined}
            >
              <Field id={id} label={words.label} required={!field.optional && !keep} error={errors[`config.${field.key}`]} hint={hint}>
                {field.input === 'lines' || field.input === 'multiline' ? (
                  <textarea
                    id={id}
                    rows={field.input === 'multiline' ? 5 : 3}
                    spellCheck={field.input === 'multiline' ? false : undefined}
                    value={f.config[field.key] ?? ''}
                    placeholder={words.placeholder}
                    onChange={(e) => setConfig(field.key, e.target.value)}
                  />
                ) : (
                  <input
                    id={id}
                    type={field.secret ? 'password' : 'text'}
                    autoComplete={field.secret ? 'new-password' : 'off'}
                    value={f.config[field.key] ?? ''}
                    placeholder={keep ? '••••••••' : words.placeholder}
                    onChange={(e) => setConfig(field.key, e.target.value)}
                  />
                )}
              </Field>
            </div>
          );
        })}
        <fieldset className="sw-fieldset sw-span-2" aria-describedby={errors.events ? 'ch-events-error' : undefined}>
          <legend>{t('alerts.col.events')}</legend>
          {EVENTS.map((ev) => (
            <label key={ev.value} className="sw-check">
              <input
                type="checkbox"
                checked={f.events.includes(ev.value)}
                onChange={(e) => edit({ events: toggle(f.events, ev.value, e.target.checked) }, 'events')}
              />
              {ev.label}
            </label>
          ))}
        </fieldset>
        {errors.events && (
          <small className="sw-field-error sw-span-2" role="alert" id="ch-events-error">
            {errors.events}
          </small>
        )}
        <fieldset className="sw-fieldset sw-span-2">
          <legend>{t('alerts.col.monitors')}</legend>
          <label className="sw-check">
            <input
              type="radio"
              name="ch-scope"
              checked={f.monitorIds === null}
              onChange={() => edit({ monitorIds: null }, 'monitor_ids')}
            />
            {t('alerts.allMonitors')}
          </label>
          <label className="sw-check">
            <input type="radio" name="ch-scope" checked={f.monitorIds !== null} onChange={() => edit({ monitorIds: [] }, 'monitor_ids')} />
            {t('alerts.form.chosenMonitors')}
          </label>
          {f.monitorIds !== null &&
            (monitors.length === 0 ? (
              <span className="sw-muted">{t('alerts.form.noMonitors')}</span>
            ) : (
              monitors.map((m) => (
                <label key={m.id} className="sw-check">
                  <input
                    type="checkbox"
                    checked={f.monitorIds!.includes(m.id)}
                    onChange={(e) => edit({ monitorIds: toggle(f.monitorIds!, m.id, e.target.checked) }, 'monitor_ids')}
                  />
                  {m.name}
                </label>
              ))
            ))}
        </fieldset>
        {errors.monitor_ids && (
          <small className="sw-field-error sw-span-2" role="alert">
            {errors.monitor_ids}
          </small>
        )}
        <Field id="ch-severity" label={t('alerts.form.minSeverity')} error={errors.min_severity} hint={t('alerts.form.minSeverityHint')}>
          <select
            id="ch-severity"
            value={f.minSeverity}
            onChange={(e) => edit({ minSeverity: e.target.value as ChannelForm['minSeverity'] }, 'min_severity')}
          >
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {t(`alerts.severity.${s}`)}
              </option>
            ))}
          </select>
        </Field>
        <label className="sw-check">
          <input type="checkbox" checked={f.enabled} onChange={(e) => edit({ enabled: e.target.checked }, 'enabled')} />
          {t('alerts.enabled')}
        </label>
        <div className="sw-modal-actions sw-span-2">
          <button type="button" className="sw-btn" onClick={() => props.onClose()}>
            {t('alerts.close')}
          </button>
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
            {editing ? t('alerts.form.save') : t('alerts.form.create')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** A webhook's signing secret, shown this once (after create or rotate), with a copy button. */
export function SecretOnce(props: { name: string; secret: string; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Modal title={t('alerts.secret.title')} onClose={props.onClose}>
      <p>{tr('alerts.secret.intro', { name: props.name, strong: (chunks) => <strong>{chunks}</strong> })}</p>
      <label className="sw-field" htmlFor="secret-once">
        {t('alerts.secret.label')}
        <input id="secret-once" readOnly value={props.secret} onFocus={(e) => e.currentTarget.select()} />
      </label>
      <div className="sw-modal-actions">
        <span role="status" className="sw-muted">
          {copied ? t('alerts.copied') : ''}
        </span>
        <button
          type="button"
          className="sw-btn"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(props.secret)
              .then(() => setCopied(true))
              .catch(() => setCopied(false))
          }
        >
          {t('alerts.copy')}
        </button>
        <button type="button" className="sw-btn sw-btn-primary" onClick={props.onClose}>
          {t('alerts.done')}
        </button>
      </div>
    </Modal>
  );
}
