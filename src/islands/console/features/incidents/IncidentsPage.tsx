// /monitors/incidents: open and resolved incidents with filters, and 'Write incident' for those who
// may create (viewers read only: no button that would fail).
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { IMPACT_LABEL, severityOfImpact } from '../../../../lib/status.ts';
import { go } from '../../router.ts';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { onLive } from '../../stores/live.ts';
import { Field } from '../../ui/Field.tsx';
import { FormAlert, ModalActions, Options, useModalForm } from '../../ui/ModalForm.tsx';
import { fmtTime } from '../../ui/format.ts';
import { ListPage } from '../../ui/ListPage.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { MonitorChecklist } from '../../ui/MonitorChecklist.tsx';
import { $monitorOptions, loadMonitorOptions } from '../../stores/monitor-options.ts';
import { $incidentTemplates, loadIncidentTemplates } from '../../stores/incident-templates.ts';
import { TemplatePicker } from '../../ui/TemplatePicker.tsx';
import {
  $incidents,
  createIncident,
  EMPTY_INCIDENT,
  IMPACTS,
  SEVERITY_LABEL,
  label,
  loadIncidents,
  NO_FILTERS,
  refreshIncidents,
  validateIncident,
  WRITTEN_STATUSES,
  type Incident,
  type IncidentFilters,
  type IncidentForm,
} from './store.ts';

export function StatusBadge({ i }: { i: Pick<Incident, 'status' | 'resolved_at' | 'acknowledged_at'> }) {
  const s = i.resolved_at ? 'resolved' : i.status;
  const tone = s === 'resolved' ? 'resolved' : s === 'open' ? 'open' : 'investigating';
  return (
    <>
      <span className={`sw-badge sw-badge-${tone}`}>{s}</span>
      {/* Someone is on it: shown until the incident is resolved. */}
      {i.acknowledged_at && !i.resolved_at && <span className="sw-badge sw-badge-acknowledged">acknowledged</span>}
    </>
  );
}

export function IncidentsPage() {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const incidents = useStore($incidents);
  const monitors = useStore($monitorOptions);
  const [filters, setFilters] = useState<IncidentFilters>(NO_FILTERS);
  const [writing, setWriting] = useState(false);
  const superAdmin = role === 'super_admin';
  const scope = superAdmin ? tenant : null;
  // A super admin writes in the chosen tenant; without one there is no company to write in.
  const mayWrite = can(role, 'create', 'monitors') && (!superAdmin || !!tenant);
  useEffect(() => {
    void loadMonitorOptions(scope);
  }, [scope]);
  useEffect(() => {
    void loadIncidents(filters, scope);
  }, [filters, scope]);
  useEffect(
    () =>
      onLive((m) => {
        if (m.type === 'incident' || m.type === 'resync') void refreshIncidents(filters, scope);
      }),
    [filters, scope],
  );
  const set = (patch: Partial<IncidentFilters>) => setFilters({ ...filters, ...patch });
  const columns = ['Status', 'Title', 'Impact', 'Monitors', 'Kind', 'Started', 'Resolved'];
  if (superAdmin) columns.splice(2, 0, 'Company');
  return (
    <ListPage
      crumb="Incidents"
      title="Incidents"
      createLabel={mayWrite ? 'Write incident' : undefined}
      onCreate={mayWrite ? () => setWriting(true) : undefined}
      alert={null}
      load={incidents}
      onRetry={() => void loadIncidents(filters, scope)}
      listTitle="Incidents"
      listId="incident-list"
      empty="No incidents match these filters."
      columns={columns}
      toolbar={
        <fieldset className="sw-filters">
          <legend className="sw-visually-hidden">Filter incidents</legend>
          <label>
            Status
            <select value={filters.status} onChange={(e) => set({ status: e.target.value as IncidentFilters['status'] })}>
              <option value="">Open and resolved</option>
              <option value="open">Open</option>
              <option value="resolved">Resolved</option>
            </select>
          </label>
          <label>
            Impact
            <select value={filters.severity} onChange={(e) => set({ severity: e.target.value as IncidentFilters['severity'] })}>
              <option value="">Any impact</option>
              <Options items={IMPACTS.map((s) => [s, SEVERITY_LABEL[s]])} />
            </select>
          </label>
          <label>
            Monitor
            <select value={filters.monitorId} onChange={(e) => set({ monitorId: e.target.value })}>
              <option value="">Any monitor</option>
              <Options items={monitors.map((m) => [m.id, m.name])} />
            </select>
          </label>
          <label>
            Kind
            <select value={filters.origin} onChange={(e) => set({ origin: e.target.value as IncidentFilters['origin'] })}>
              <option value="">Automatic and manual</option>
              <option value="automatic">Automatic</option>
              <option value="manual">Manual</option>
            </select>
          </label>
        </fieldset>
      }
      note={superAdmin && !tenant ? 'Choose a tenant in the selector to write an incident.' : undefined}
      row={(i) => {
        const cells = [
          <StatusBadge i={i} />,
          <a href={`/monitors/incidents/${i.id}`}>{i.title}</a>,
          <span className={`sw-sev sw-sev-${i.severity === 'low' ? 'other' : i.severity}`}>{IMPACT_LABEL[i.impact]}</span>,
          i.monitors.length ? i.monitors.map((m) => m.name).join(', ') : '—',
          i.automatic ? 'Automatic' : 'Manual',
          fmtTime(i.started_at, '—'),
          i.resolved_at ? fmtTime(i.resolved_at, '—') : '—',
        ];
        if (superAdmin) cells.splice(2, 0, i.tenant_name ?? i.company_id);
        return { key: i.id, cells };
      }}
    >
      {writing && <WriteIncident tenant={scope} onClose={() => setWriting(false)} />}
    </ListPage>
  );
}

function WriteIncident({ tenant, onClose }: { tenant: string | null; onClose: () => void }) {
  const monitors = useStore($monitorOptions);
  const templates = useStore($incidentTemplates);
  const { f, setF, errors, setErrors, busy, edit, send } = useModalForm<IncidentForm>(EMPTY_INCIDENT);
  const [alert, setAlert] = useState<string | null>(null);
  useEffect(() => {
    void loadIncidentTemplates(tenant, 'incident');
  }, [tenant]);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const o = await send(validateIncident(f), () => createIncident(f, tenant));
    if (!o) return;
    if (o.ok) {
      onClose();
      go(`/monitors/incidents/${o.data.id}`);
      return;
    }
    setAlert(o.text);
    setErrors({ ...o.fields, ...(o.fields.monitor_ids ? { monitorIds: o.fields.monitor_ids } : {}) });
  }
  return (
    <Modal title="Write incident" onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <FormAlert text={alert} />
        <TemplatePicker
          id="i-template"
          templates={templates}
          onPick={(t) => {
            setF({
              ...f,
              title: t.title,
              message: t.message,
              severity: t.impact ? severityOfImpact(t.impact) : f.severity,
              monitorIds: t.monitor_ids.length ? t.monitor_ids : f.monitorIds,
            });
            setErrors({});
          }}
        />
        <div className="sw-span-2">
          <Field id="i-title" label="Title" required error={errors.title}>
            <input id="i-title" value={f.title} maxLength={300} onChange={(e) => edit({ title: e.target.value }, 'title')} required />
          </Field>
        </div>
        <Field id="i-impact" label="Impact" required>
          <select
            id="i-impact"
            value={f.severity}
            onChange={(e) => edit({ severity: e.target.value as IncidentForm['severity'] }, 'severity')}
          >
            <Options items={IMPACTS.map((s) => [s, SEVERITY_LABEL[s]])} />
          </select>
        </Field>
        <Field id="i-status" label="Status" required>
          <select id="i-status" value={f.status} onChange={(e) => edit({ status: e.target.value as IncidentForm['status'] }, 'status')}>
            <Options items={WRITTEN_STATUSES.map((s) => [s, label(s)])} />
          </select>
        </Field>
        <div className="sw-span-2">
          <MonitorChecklist
            id="i-monitors"
            legend="Affected monitors"
            hint="None chosen: the whole service."
            options={monitors}
            chosen={f.monitorIds}
            onChange={(ids) => edit({ monitorIds: ids }, 'monitorIds')}
            error={errors.monitorIds}
          />
        </div>
        <div className="sw-field">
          <label className="sw-check">
            <input type="checkbox" checked={f.isPublic} onChange={(e) => edit({ isPublic: e.target.checked }, 'isPublic')} />
            Public (shown on the status page)
          </label>
        </div>
        <div className="sw-span-2">
          <Field id="i-message" label="Message" required error={errors.message}>
            <textarea
              id="i-message"
              rows={4}
              maxLength={5000}
              value={f.message}
              onChange={(e) => edit({ message: e.target.value }, 'message')}
            />
          </Field>
        </div>
        <ModalActions onClose={onClose} busy={busy} submitLabel="Publish incident" />
      </form>
    </Modal>
  );
}
