// /monitors/maintenance: scheduled, running, past and cancelled windows; schedule and edit, end
// now and cancel for those with update rights (a company admin never deletes a window; a viewer
// sees the list without buttons).
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { onLive } from '../../stores/live.ts';
import { $monitorOptions, loadMonitorOptions } from '../../stores/monitor-options.ts';
import { $incidentTemplates, loadIncidentTemplates } from '../../stores/incident-templates.ts';
import { TemplatePicker } from '../../ui/TemplatePicker.tsx';
import { Field } from '../../ui/Field.tsx';
import { FormAlert, ModalActions, useModalForm } from '../../ui/ModalForm.tsx';
import { fmtTime } from '../../ui/format.ts';
import { ListPage } from '../../ui/ListPage.tsx';
import { Confirm, Modal } from '../../ui/Modal.tsx';
import { MonitorChecklist } from '../../ui/MonitorChecklist.tsx';
import {
  $maintenanceAlert,
  $windows,
  cancelWindow,
  editWindow,
  emptyWindow,
  endWindow,
  formOf,
  loadWindows,
  refreshWindows,
  scheduleWindow,
  validateWindow,
  type Window,
  type WindowForm,
} from './store.ts';

const STATE_TONE: Record<Window['state'], string> = {
  active: 'sw-amber',
  scheduled: 'sw-grey',
  completed: 'sw-green',
  cancelled: 'sw-grey',
};
const REPEAT: Record<string, string> = { weekly: 'Weekly', monthly: 'Monthly' };

export function MaintenancePage() {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const windows = useStore($windows);
  const monitors = useStore($monitorOptions);
  const alert = useStore($maintenanceAlert);
  const [editing, setEditing] = useState<Window | 'new' | null>(null);
  const [confirm, setConfirm] = useState<{ w: Window; verb: 'end' | 'cancel' } | null>(null);
  const superAdmin = role === 'super_admin';
  const scope = superAdmin ? tenant : null;
  const mayUpdate = can(role, 'update', 'monitors');
  const mayCreate = mayUpdate && (!superAdmin || !!tenant);
  useEffect(() => {
    $maintenanceAlert.set(null);
    void loadWindows(scope);
    void loadMonitorOptions(scope);
  }, [scope]);
  useEffect(
    () =>
      onLive((m) => {
        if (m.type === 'maintenance' || m.type === 'resync') void refreshWindows(scope);
      }),
    [scope],
  );
  const monitorNames = (ids: string[]) =>
    ids.length ? ids.map((id) => monitors.find((m) => m.id === id)?.name ?? 'A monitor').join(', ') : 'All monitors';
  const columns = ['State', 'Title', 'Monitors', 'When', 'Repeats'];
  if (mayUpdate) columns.push('Actions');
  return (
    <ListPage
      crumb="Maintenance"
      title="Maintenance"
      createLabel={mayCreate ? 'Schedule maintenance' : undefined}
      onCreate={
        mayCreate
          ? () => {
              $maintenanceAlert.set(null);
              setEditing('new');
            }
          : undefined
      }
      note={
        superAdmin && !tenant
          ? 'Choose a tenant in the selector to schedule maintenance.'
          : 'During maintenance checks keep running, but no incident opens and no alert goes out.'
      }
      alert={editing ? null : alert}
      load={windows}
      onRetry={() => void loadWindows(scope)}
      listTitle="Maintenance windows"
      listId="maintenance-list"
      empty="No maintenance scheduled."
      columns={columns}
      row={(w) => {
        const open = w.state === 'scheduled' || w.state === 'active';
        const when = w.next_starts_at && w.state !== 'completed' ? [w.next_starts_at, w.next_ends_at] : [w.starts_at, w.ends_at];
        const cells = [
          <span className={`sw-pill ${STATE_TONE[w.state]}`}>{w.state}</span>,
          <div>
            <strong>{w.title}</strong>
            {w.description && <div className="sw-muted sw-wrap-anywhere">{w.description}</div>}
          </div>,
          monitorNames(w.monitor_ids),
          `${fmtTime(when[0], '—')} – ${fmtTime(when[1], '—')}`,
          w.recurrence ? REPEAT[w.recurrence] : 'Once',
        ];
        if (mayUpdate)
          cells.push(
            open ? (
              <>
                <button type="button" className="sw-btn sw-btn-small" aria-label={`Edit ${w.title}`} onClick={() => setEditing(w)}>
                  Edit
                </button>
                {w.state === 'active' && (
                  <button
                    type="button"
                    className="sw-btn sw-btn-small"
                    aria-label={`End now: ${w.title}`}
                    onClick={() => setConfirm({ w, verb: 'end' })}
                  >
                    End now
                  </button>
                )}
                <button
                  type="button"
                  className="sw-btn sw-btn-small sw-btn-danger"
                  aria-label={`Cancel ${w.title}`}
                  onClick={() => setConfirm({ w, verb: 'cancel' })}
                >
                  Cancel
                </button>
              </>
            ) : (
              ''
            ),
          );
        return { key: w.id, cells };
      }}
    >
      {editing && <WindowModal w={editing === 'new' ? null : editing} tenant={scope} onClose={() => setEditing(null)} />}
      {confirm && (
        <Confirm
          title={confirm.verb === 'end' ? 'End maintenance now' : 'Cancel maintenance'}
          danger={confirm.verb === 'cancel'}
          confirmLabel={confirm.verb === 'end' ? 'End now' : 'Cancel maintenance'}
          text={
            confirm.verb === 'end'
              ? `End "${confirm.w.title}" now? Alerts resume at once${confirm.w.recurrence ? ' and it will not repeat' : ''}.`
              : `Cancel "${confirm.w.title}"${confirm.w.recurrence ? ' and every repeat' : ''}? It stays listed as cancelled.`
          }
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const { w, verb } = confirm;
            setConfirm(null);
            void (verb === 'end' ? endWindow(w.id, scope) : cancelWindow(w.id, scope));
          }}
        />
      )}
    </ListPage>
  );
}

function WindowModal({ w, tenant, onClose }: { w: Window | null; tenant: string | null; onClose: () => void }) {
  const monitors = useStore($monitorOptions);
  const templates = useStore($incidentTemplates);
  const { f, setF, errors, setErrors, busy, edit, send } = useModalForm<WindowForm>(w ? formOf(w) : emptyWindow(Date.now()));
  const [alert, setAlert] = useState<string | null>(null);
  useEffect(() => {
    // Templates fill a new window; an existing one is edited as it is.
    if (!w) void loadIncidentTemplates(tenant, 'maintenance');
  }, [w, tenant]);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const o = await send(validateWindow(f), () => (w ? editWindow(w.id, f, tenant) : scheduleWindow(f, tenant)));
    if (!o) return;
    if (o.ok) return onClose();
    setAlert(o.text);
    setErrors(o.fields);
  }
  return (
    <Modal title={w ? 'Edit maintenance' : 'Schedule maintenance'} onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <FormAlert text={alert} />
        {!w && (
          <TemplatePicker
            id="m-template"
            templates={templates}
            onPick={(t) => {
              setF({ ...f, title: t.title, description: t.message, monitorIds: t.monitor_ids.length ? t.monitor_ids : f.monitorIds });
              setErrors({});
            }}
          />
        )}
        <div className="sw-span-2">
          <Field id="m-title" label="Title" required error={errors.title}>
            <input id="m-title" value={f.title} maxLength={300} onChange={(e) => edit({ title: e.target.value }, 'title')} />
          </Field>
        </div>
        <div className="sw-span-2">
          <Field id="m-description" label="Description" error={errors.description} hint="Shown on the status page">
            <textarea
              id="m-description"
              rows={3}
              maxLength={5000}
              value={f.description}
              onChange={(e) => edit({ description: e.target.value }, 'description')}
            />
          </Field>
        </div>
        <Field id="m-starts" label="Starts (UTC)" required error={errors.startsAt}>
          <input id="m-starts" type="datetime-local" value={f.startsAt} onChange={(e) => edit({ startsAt: e.target.value }, 'startsAt')} />
        </Field>
        <Field id="m-ends" label="Ends (UTC)" required error={errors.endsAt}>
          <input id="m-ends" type="datetime-local" value={f.endsAt} onChange={(e) => edit({ endsAt: e.target.value }, 'endsAt')} />
        </Field>
        <Field id="m-repeat" label="Repeats" error={errors.recurrence} hint="The same span every week, or on the same day each month">
          <select
            id="m-repeat"
            value={f.recurrence}
            onChange={(e) => edit({ recurrence: e.target.value as WindowForm['recurrence'] }, 'recurrence')}
          >
            <option value="">Once</option>
            <option value="weekly">Weekly</option>
            <option value="monthly">Monthly</option>
          </select>
        </Field>
        <div className="sw-span-2">
          <MonitorChecklist
            id="m-monitors"
            legend="Affected monitors"
            hint="None chosen: every monitor of the company."
            options={monitors}
            chosen={f.monitorIds}
            onChange={(ids) => edit({ monitorIds: ids }, 'monitorIds')}
            error={errors.monitorIds}
          />
        </div>
        <ModalActions onClose={onClose} busy={busy} closeLabel="Close" submitLabel={w ? 'Save changes' : 'Schedule'} />
      </form>
    </Modal>
  );
}
