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
import { t } from '../../i18n.ts';

export function StatusBadge({ i }: { i: Pick<Incident, 'status' | 'resolved_at' | 'acknowledged_at'> }) {
  const s = i.resolved_at ? 'resolved' : i.status;
  const tone = s === 'resolved' ? 'resolved' : s === 'open' ? 'open' : 'investigating';
  return (
    <>
      <span className={`sw-badge sw-badge-${tone}`}>{s}</span>
      {/* Someone is on it: shown until the incident is resolved. */}
      {i.acknowledged_at && !i.resolved_at && (
        <span className="sw-badge sw-badge-acknowledged">{t('incidents.incidentsPage.acknowledged')}</span>
      )}
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
  const columns = [
    t('incidents.list.status'),
    t('incidents.list.title'),
    t('incidents.list.impact'),
    t('incidents.list.monitors'),
    t('incidents.list.kind'),
    t('incidents.list.started'),
    t('incidents.list.resolved'),
  ];
  if (superAdmin) columns.splice(2, 0, t('incidents.list.company'));
  return (
    <ListPage
      crumb="Incidents"
      title={t('incidents.incidentPage.incidents')}
      createLabel={mayWrite ? t('incidents.incidentsPage.writeIncident') : undefined}
      onCreate={mayWrite ? () => setWriting(true) : undefined}
      alert={null}
      load={incidents}
      onRetry={() => void loadIncidents(filters, scope)}
      listTitle="Incidents"
      listId="incident-list"
      empty={t('incidents.incidentsPage.noIncidentsMatchTheseFilters')}
      columns={columns}
      toolbar={
        <fieldset className="sw-filters">
          <legend className="sw-visually-hidden">{t('incidents.incidentsPage.filterIncidents')}</legend>
          <label>
            {t('incidents.incidentPage.status')}
            <select value={filters.status} onChange={(e) => set({ status: e.target.value as IncidentFilters['status'] })}>
              <option value="">{t('incidents.incidentsPage.openAndResolved')}</option>
              <option value="open">{t('incidents.incidentsPage.open')}</option>
              <option value="resolved">{t('incidents.incidentPage.resolved')}</option>
            </select>
          </label>
          <label>
            {t('incidents.incidentPage.impact')}
            <select value={filters.severity} onChange={(e) => set({ severity: e.target.value as IncidentFilters['severity'] })}>
              <option value="">{t('incidents.incidentsPage.anyImpact')}</option>
              <Options items={IMPACTS.map((s) => [s, t(SEVERITY_LABEL[s])])} />
            </select>
          </label>
          <label>
            {t('incidents.incidentsPage.monitor')}
            <select value={filters.monitorId} onChange={(e) => set({ monitorId: e.target.value })}>
              <option value="">{t('incidents.incidentsPage.anyMonitor')}</option>
              <Options items={monitors.map((m) => [m.id, m.name])} />
            </select>
          </label>
          <label>
            {t('incidents.incidentPage.kind')}
            <select value={filters.origin} onChange={(e) => set({ origin: e.target.value as IncidentFilters['origin'] })}>
              <option value="">{t('incidents.incidentsPage.automaticAndManual')}</option>
              <option value="automatic">{t('incidents.incidentsPage.automatic')}</option>
              <option value="manual">{t('incidents.incidentsPage.manual')}</option>
            </select>
          </label>
        </fieldset>
      }
      note={superAdmin && !tenant ? t('incidents.incidentsPage.chooseATenantInThe') : undefined}
      row={(i) => {
        const cells = [
          <StatusBadge i={i} />,
          <a href={`/monitors/incidents/${i.id}`}>{i.title}</a>,
          <span className={`sw-sev sw-sev-${i.severity === 'low' ? 'other' : i.severity}`}>{IMPACT_LABEL[i.impact]}</span>,
          i.monitors.length ? i.monitors.map((m) => m.name).join(', ') : '—',
          i.automatic ? t('incidents.list.automatic') : t('incidents.list.manual'),
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
    <Modal title={t('incidents.incidentsPage.writeIncident')} onClose={onClose} wide>
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
          <Field id="i-title" label={t('incidents.incidentsPage.title')} required error={errors.title}>
            <input id="i-title" value={f.title} maxLength={300} onChange={(e) => edit({ title: e.target.value }, 'title')} required />
          </Field>
        </div>
        <Field id="i-impact" label={t('incidents.incidentPage.impact')} required>
          <select
            id="i-impact"
            value={f.severity}
            onChange={(e) => edit({ severity: e.target.value as IncidentForm['severity'] }, 'severity')}
          >
            <Options items={IMPACTS.map((s) => [s, t(SEVERITY_LABEL[s])])} />
          </select>
        </Field>
        <Field id="i-status" label={t('incidents.incidentPage.status')} required>
          <select id="i-status" value={f.status} onChange={(e) => edit({ status: e.target.value as IncidentForm['status'] }, 'status')}>
            <Options items={WRITTEN_STATUSES.map((s) => [s, label(s)])} />
          </select>
        </Field>
        <div className="sw-span-2">
          <MonitorChecklist
            id="i-monitors"
            legend={t('incidents.affectedMonitorsDialog.affectedMonitors')}
            hint={t('incidents.affectedMonitorsDialog.noneChosenTheWholeService')}
            options={monitors}
            chosen={f.monitorIds}
            onChange={(ids) => edit({ monitorIds: ids }, 'monitorIds')}
            error={errors.monitorIds}
          />
        </div>
        <div className="sw-field">
          <label className="sw-check">
            <input type="checkbox" checked={f.isPublic} onChange={(e) => edit({ isPublic: e.target.checked }, 'isPublic')} />
            {t('incidents.incidentsPage.publicShownOnTheStatus')}
          </label>
        </div>
        <div className="sw-span-2">
          <Field id="i-message" label={t('incidents.incidentPage.message')} required error={errors.message}>
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
