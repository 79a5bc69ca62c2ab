// The "Incoming alerts" section of /settings/alerts: the sources that let Prometheus
// Alertmanager, Grafana or a script open, update and resolve incidents here. An admin creates
// one (name, what sends, the status-page components it marks and how), reads its receive URL and
// token once, rotates the token, deletes it, and sees when it last received something.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
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
    ids.length === 0 ? 'None (not on the status page)' : ids.map((id) => monitors.find((m) => m.id === id)?.name ?? 'A monitor').join(', ');
  const rows = sources.status === 'ready' ? sources.data : [];
  return (
    <section className="sw-card" aria-labelledby="incoming-alerts">
      <header className="sw-card-head sw-row-between">
        <h3 id="incoming-alerts">Incoming alerts ({rows.length})</h3>
        {props.mayCreate && (
          <button type="button" className="sw-btn sw-btn-small" onClick={() => setCreating(true)}>
            New source
          </button>
        )}
      </header>
      <p className="sw-muted">
        Alerts from Prometheus Alertmanager, Grafana or your own scripts open, update and resolve incidents here, and reach the channels
        above like a monitor's. Each source has its own token.
      </p>
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
          empty="No incoming alert sources yet."
          columns={[
            { label: 'Source', cell: (s) => <strong>{s.name}</strong> },
            { label: 'Sends', cell: (s) => INCOMING_KIND_LABEL[s.kind] },
            { label: 'Receive URL', cell: (s) => <code className="sw-mono sw-small sw-wrap-anywhere">{receiveUrl(s.receive_path)}</code> },
            { label: 'Marks', cell: (s) => componentsText(s.component_ids) },
            { label: 'Last received', cell: (s) => fmtTime(s.last_received_at, 'Never') },
            ...(props.mayChange
              ? [
                  {
                    label: 'Actions',
                    className: 'sw-actions',
                    cell: (s: IncomingSource) => (
                      <>
                        <button
                          type="button"
                          className="sw-btn sw-btn-small"
                          aria-label={`Rotate token of ${s.name}`}
                          onClick={() => setConfirm({ s, verb: 'rotate' })}
                        >
                          Rotate token
                        </button>
                        <button
                          type="button"
                          className="sw-btn sw-btn-small sw-btn-danger"
                          aria-label={`Delete ${s.name}`}
                          onClick={() => setConfirm({ s, verb: 'delete' })}
                        >
                          Delete
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
          title={confirm.verb === 'rotate' ? 'Rotate token' : 'Delete source'}
          danger={confirm.verb === 'delete'}
          confirmLabel={confirm.verb === 'rotate' ? 'Rotate' : 'Delete'}
          text={
            confirm.verb === 'rotate'
              ? `Replace the token of "${confirm.s.name}"? Its tool is refused until it sends the new one.`
              : `Delete "${confirm.s.name}"? Its token is refused from now on; the incidents it opened stay.`
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
    if (!f.name.trim()) return setErrors({ name: 'Name is required' });
    setBusy(true);
    const o = await createSource(f, props.tenant);
    setBusy(false);
    if (o.ok) return props.onClose(o.source);
    setFailure(o.text);
    setErrors(o.fields);
  }
  return (
    <Modal title="New incoming alert source" onClose={() => props.onClose()} wide>
      <form className="sw-form" onSubmit={submit} noValidate>
        {failure && (
          <div className="sw-banner sw-banner-error" role="alert">
            {failure}
          </div>
        )}
        <Field id="in-name" label="Name" required error={errors.name}>
          <input id="in-name" value={f.name} maxLength={100} onChange={(e) => setF({ ...f, name: e.target.value })} />
        </Field>
        <Field id="in-kind" label="Sends" error={errors.kind}>
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
          legend="Status-page components it marks"
          hint="While one of its incidents is open these show the impact below. None: its incidents stay off the status page."
          options={monitors}
          chosen={f.componentIds}
          onChange={(componentIds) => setF({ ...f, componentIds })}
          error={errors.component_ids}
        />
        <Field id="in-impact" label="Impact on them" error={errors.component_impact}>
          <select id="in-impact" value={f.impact} onChange={(e) => setF({ ...f, impact: e.target.value as SourceForm['impact'] })}>
            <option value="minor">Degraded performance</option>
            <option value="major">Partial outage</option>
            <option value="critical">Major outage</option>
          </select>
        </Field>
        <div className="sw-modal-actions">
          <button type="button" className="sw-btn" onClick={() => props.onClose()}>
            Cancel
          </button>
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
            Create
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
    <Modal title={`Token of ${s.name}`} onClose={props.onClose} wide>
      <p>Copy the token now: it is not shown again (rotate it to get a new one).</p>
      <CopyValue id="incoming-url" label="Receive URL (send Authorization: Bearer <token>)" value={url} />
      <CopyValue id="incoming-token" label="Token" value={s.token} />
      <CopyValue
        id="incoming-url-token"
        label="Or the URL with the token, for tools that cannot set a header"
        value={`${url}/${s.token}`}
      />
      <p className="sw-muted sw-small">The setup of Alertmanager and Grafana is in the documentation: Incoming alerts.</p>
      <div className="sw-modal-actions">
        <button type="button" className="sw-btn sw-btn-primary" onClick={props.onClose}>
          Done
        </button>
      </div>
    </Modal>
  );
}
