// The "Incoming alerts" section of /settings/alerts: the sources that let Prometheus
// Alertmanager, Grafana or a script open, update and resolve incidents here. An admin creates
// one (name, what sends, the status-page components it marks and how), reads its receive URL and
// token once, rotates the token, deletes it, and sees when it last received something.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { t } from '../../i18n.ts';
import { CopyValue } from '../../ui/CopyValue.tsx';
import { Field } from '../../ui/Field.tsx';
import { fmtTime } from '../../ui/format.ts';
import { Confirm, Modal } from '../../ui/Modal.tsx';
import { MonitorChecklist } from '../../ui/MonitorChecklist.tsx';
import { Table } from '../../ui/Table.tsx';
import {
  $sources,
  $sourcesAlert,
  createSource,
  deleteSource,
  INCOMING_KIND_LABEL,
  loadSources,
  rotateToken,
  type IncomingKind,
  type IncomingSource,
  type SourceForm,
  type SourceWithToken,
} from './incoming-store.ts';
import { $alertMonitors } from './store.ts';

const receiveUrl = (path: string) => `${window.location.origin}${path}`;

export function IncomingSection(props: { tenant: string | null; mayChange: boolean; mayCreate: boolean }) {
  const { tenant } = props;
  const sources = useStore($sources);
  const alert = useStore($sourcesAlert);
  const monitors = useStore($alertMonitors);
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<SourceWithToken | null>(null);
  const [confirm, setConfirm] = useState<{ s: IncomingSource; verb: 'rotate' | 'delete' } | null>(null);
  useEffect(() => {
    $sourcesAlert.set(null);
    void loadSources(tenant);
  }, [tenant]);
  const componentsText = (ids: string[]) =>
    ids.length === 0
      ? t('alerts.incoming.noComponents')
      : ids.map((id) => monitors.find((m) => m.id === id)?.name ?? t('alerts.aMonitor')).join(', ');
  const rows = sources.status === 'ready' ? sources.data : [];
  return (
    <section className="sw-card" aria-labelledby="incoming-alerts">
      <header className="sw-card-head sw-row-between">
        <h3 id="incoming-alerts">{t('alerts.incoming.title', { count: rows.length })}</h3>
        {props.mayCreate && (
          <button type="button" className="sw-btn sw-btn-small" onClick={() => setCreating(true)}>
            {t('alerts.incoming.new')}
          </button>
        )}
      </header>
      <p className="sw-muted">{t('alerts.incoming.intro')}</p>
      {alert && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {alert.text}
        </div>
      )}
      {sources.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {sources.message}
        </div>
      )}
      {sources.status === 'ready' && (
        <Table
          rows={rows}
          rowKey={(s) => s.id}
          empty={t('alerts.incoming.empty')}
          columns={[
            { label: t('alerts.incoming.col.source'), cell: (s) => <strong>{s.name}</strong> },
            { label: t('alerts.incoming.col.sends'), cell: (s) => INCOMING_KIND_LABEL[s.kind] },
            {
              label: t('alerts.incoming.col.url'),
              cell: (s) => <code className="sw-mono sw-small sw-wrap-anywhere">{receiveUrl(s.receive_path)}</code>,
            },
            { label: t('alerts.incoming.col.marks'), cell: (s) => componentsText(s.component_ids) },
            { label: t('alerts.incoming.col.lastReceived'), cell: (s) => fmtTime(s.last_received_at, t('alerts.never')) },
            ...(props.mayChange
              ? [
                  {
                    label: t('alerts.col.actions'),
                    className: 'sw-actions',
                    cell: (s: IncomingSource) => (
                      <>
                        <button
                          type="button"
                          className="sw-btn sw-btn-small"
                          aria-label={t('alerts.incoming.rotateOne', { name: s.name })}
                          onClick={() => setConfirm({ s, verb: 'rotate' })}
                        >
                          {t('alerts.incoming.rotate')}
                        </button>
                        <button
                          type="button"
                          className="sw-btn sw-btn-small sw-btn-danger"
                          aria-label={t('alerts.deleteOne', { name: s.name })}
                          onClick={() => setConfirm({ s, verb: 'delete' })}
                        >
                          {t('alerts.delete')}
                        </button>
                      </>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      {creating && (
        <SourceDialog
          tenant={tenant}
          onClose={(created) => {
            setCreating(false);
            if (created) setShown(created);
          }}
        />
      )}
      {shown && <TokenOnce source={shown} onClose={() => setShown(null)} />}
      {confirm && (
        <Confirm
          title={confirm.verb === 'rotate' ? t('alerts.incoming.rotate') : t('alerts.incoming.deleteTitle')}
          danger={confirm.verb === 'delete'}
          confirmLabel={confirm.verb === 'rotate' ? t('alerts.rotate') : t('alerts.delete')}
          text={
            confirm.verb === 'rotate'
              ? t('alerts.incoming.confirmRotate', { name: confirm.s.name })
              : t('alerts.incoming.confirmDelete', { name: confirm.s.name })
          }
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const { s, verb } = confirm;
            setConfirm(null);
            if (verb === 'delete') void deleteSource(s, tenant);
            else void rotateToken(s, tenant).then((r) => r && setShown(r));
          }}
        />
      )}
    </section>
  );
}

function SourceDialog(props: { tenant: string | null; onClose: (created?: SourceWithToken) => void }) {
  const monitors = useStore($alertMonitors);
  const [f, setF] = useState<SourceForm>({ name: '', kind: 'alertmanager', componentIds: [], impact: 'major' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!f.name.trim()) return setErrors({ name: t('alerts.form.nameRequired') });
    setBusy(true);
    const o = await createSource(f, props.tenant);
    setBusy(false);
    if (o.ok) return props.onClose(o.source);
    setFailure(o.text);
    setErrors(o.fields);
  }
  return (
    <Modal title={t('alerts.incoming.newTitle')} onClose={() => props.onClose()} wide>
      <form className="sw-form" onSubmit={submit} noValidate>
        {failure && (
          <div className="sw-banner sw-banner-error" role="alert">
            {failure}
          </div>
        )}
        <Field id="in-name" label={t('alerts.form.name')} required error={errors.name}>
          <input id="in-name" value={f.name} maxLength={100} onChange={(e) => setF({ ...f, name: e.target.value })} />
        </Field>
        <Field id="in-kind" label={t('alerts.incoming.col.sends')} error={errors.kind}>
          <select id="in-kind" value={f.kind} onChange={(e) => setF({ ...f, kind: e.target.value as IncomingKind })}>
            {(Object.keys(INCOMING_KIND_LABEL) as IncomingKind[]).map((k) => (
              <option key={k} value={k}>
                {INCOMING_KIND_LABEL[k]}
              </option>
            ))}
          </select>
        </Field>
        <MonitorChecklist
          id="in-components"
          legend={t('alerts.incoming.components')}
          hint={t('alerts.incoming.componentsHint')}
          options={monitors}
          chosen={f.componentIds}
          onChange={(componentIds) => setF({ ...f, componentIds })}
          error={errors.component_ids}
        />
        <Field id="in-impact" label={t('alerts.incoming.impact')} error={errors.component_impact}>
          <select id="in-impact" value={f.impact} onChange={(e) => setF({ ...f, impact: e.target.value as SourceForm['impact'] })}>
            <option value="minor">{t('alerts.incoming.impactMinor')}</option>
            <option value="major">{t('alerts.incoming.impactMajor')}</option>
            <option value="critical">{t('alerts.incoming.impactCritical')}</option>
          </select>
        </Field>
        <div className="sw-modal-actions">
          <button type="button" className="sw-btn" onClick={() => props.onClose()}>
            {t('alerts.cancel')}
          </button>
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
            {t('alerts.create')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The receive URL and the token, once: with the token as a header, or in the URL for tools that set no header. */
function TokenOnce(props: { source: SourceWithToken; onClose: () => void }) {
  const s = props.source;
  const url = receiveUrl(s.receive_path);
  return (
    <Modal title={t('alerts.incoming.tokenOf', { name: s.name })} onClose={props.onClose} wide>
      <p>{t('alerts.incoming.copyNow')}</p>
      <CopyValue id="incoming-url" label={t('alerts.incoming.urlLabel')} value={url} />
      <CopyValue id="incoming-token" label={t('alerts.incoming.token')} value={s.token} />
      <CopyValue id="incoming-url-token" label={t('alerts.incoming.urlWithToken')} value={`${url}/${s.token}`} />
      <p className="sw-muted sw-small">{t('alerts.incoming.docs')}</p>
      <div className="sw-modal-actions">
        <button type="button" className="sw-btn sw-btn-primary" onClick={props.onClose}>
          {t('alerts.done')}
        </button>
      </div>
    </Modal>
  );
}
