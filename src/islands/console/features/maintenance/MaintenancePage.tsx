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
import { t } from '../../i18n.ts';
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
// Read at render, so the labels follow the console's language.
const STATE_LABEL: Record<Window['state'], () => string> = {
  active: () => t('maintenance.state.active'),
  scheduled: () => t('maintenance.state.scheduled'),
  completed: () => t('maintenance.state.completed'),
  cancelled: () => t('maintenance.state.cancelled'),
};
const REPEAT: Record<string, () => string> = {
  weekly: () => t('maintenance.repeat.weekly'),
  monthly: () => t('maintenance.repeat.monthly'),
};

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
    ids.length
      ? ids.map((id) => monitors.find((m) => m.id === id)?.name ?? t('maintenance.list.aMonitor')).join(', ')
      : t('maintenance.list.allMonitors');
  const columns = [
    t('maintenance.list.state'),
    t('maintenance.list.title'),
    t('maintenance.list.monitors'),
    t('maintenance.list.when'),
    t('maintenance.list.repeats'),
  ];
  if (mayUpdate) columns.push(t('maintenance.list.actions'));
  return (
    <ListPage
      crumb={t('maintenance.page.title')}
      title={t('maintenance.page.title')}
      createLabel={mayCreate ? t('maintenance.page.schedule') : undefined}
      onCreate={
        mayCreate
          ? () => {
              $maintenanceAlert.set(null);
              setEditing('new');
            }
          : undefined
      }
      note={superAdmin && !tenant ? t('maintenance.page.chooseTenant') : t('maintenance.page.note')}
      alert={editing ? null : alert}
      load={windows}
      onRetry={() => void loadWindows(scope)}
      listTitle={t('maintenance.list.heading')}
      listId="maintenance-list"
      empty={t('maintenance.list.empty')}
      columns={columns}
      row={(w) => {
        const open = w.state === 'scheduled' || w.state === 'active';
        const when = w.next_starts_at && w.state !== 'completed' ? [w.next_starts_at, w.next_ends_at] : [w.starts_at, w.ends_at];
        const cells = [
          <span className={`sw-pill ${STATE_TONE[w.state]}`}>{STATE_LABEL[w.state]()}</span>,
          <div>
            <strong>{w.title}</strong>
            {w.description && <div className="sw-muted sw-wrap-anywhere">{w.description}</div>}
          </div>,
          monitorNames(w.monitor_ids),
          `${fmtTime(when[0], '—')} – ${fmtTime(when[1], '—')}`,
          w.recurrence ? (REPEAT[w.recurrence]?.() ?? w.recurrence) : t('maintenance.repeat.once'),
        ];
        if (mayUpdate)
          cells.push(
            open ? (
              <>
                <button
                  type="button"
                  className="sw-btn sw-btn-small"
                  aria-label={t('maintenance.list.editLabel', { title: w.title })}
                  onClick={() => setEditing(w)}
                >
                  {t('maintenance.list.edit')}
                </button>
                {w.state === 'active' && (
                  <button
                    type="button"
                    className="sw-btn sw-btn-small"
                    aria-label={t('maintenance.list.endNowLabel', { title: w.title })}
                    onClick={() => setConfirm({ w, verb: 'end' })}
                  >
                    {t('maintenance.list.endNow')}
                  </button>
                )}
                <button
                  type="button"
                  className="sw-btn sw-btn-small sw-btn-danger"
                  aria-label={t('maintenance.list.cancelLabel', { title: w.title })}
                  onClick={() => setConfirm({ w, verb: 'cancel' })}
                >
                  {t('maintenance.list.cancel')}
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
          title={confirm.verb === 'end' ? t('maintenance.confirm.endTitle') : t('maintenance.confirm.cancelTitle')}
          danger={confirm.verb === 'cancel'}
          confirmLabel={confirm.verb === 'end' ? t('maintenance.list.endNow') : t('maintenance.confirm.cancelTitle')}
          text={
            confirm.verb === 'end'
              ? t('maintenance.confirm.endText', { title: confirm.w.title, repeats: confirm.w.recurrence ? 'yes' : 'no' })
              : t('maintenance.confirm.cancelText', { title: confirm.w.title, repeats: confirm.w.recurrence ? 'yes' : 'no' })
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
    <Modal title={w ? t('maintenance.form.editTitle') : t('maintenance.page.schedule')} onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <FormAlert text={alert} />
        {!w && (
          <TemplatePicker
            id="m-template"
            templates={templates}
            onPick={(tpl) => {
              setF({
                ...f,
                title: tpl.title,
                description: tpl.message,
                monitorIds: tpl.monitor_ids.length ? tpl.monitor_ids : f.monitorIds,
              });
              setErrors({});
            }}
          />
        )}
        <div className="sw-span-2">
          <Field id="m-title" label={t('maintenance.form.title')} required error={errors.title}>
            <input id="m-title" value={f.title} maxLength={300} onChange={(e) => edit({ title: e.target.value }, 'title')} />
          </Field>
        </div>
        <div className="sw-span-2">
          <Field
            id="m-description"
            label={t('maintenance.form.description')}
            error={errors.description}
            hint={t('maintenance.form.descriptionHint')}
          >
            <textarea
              id="m-description"
              rows={3}
              maxLength={5000}
              value={f.description}
              onChange={(e) => edit({ description: e.target.value }, 'description')}
            />
          </Field>
        </div>
        <Field id="m-starts" label={t('maintenance.form.starts')} required error={errors.startsAt}>
          <input id="m-starts" type="datetime-local" value={f.startsAt} onChange={(e) => edit({ startsAt: e.target.value }, 'startsAt')} />
        </Field>
        <Field id="m-ends" label={t('maintenance.form.ends')} required error={errors.endsAt}>
          <input id="m-ends" type="datetime-local" value={f.endsAt} onChange={(e) => edit({ endsAt: e.target.value }, 'endsAt')} />
        </Field>
        <Field id="m-repeat" label={t('maintenance.list.repeats')} error={errors.recurrence} hint={t('maintenance.form.repeatsHint')}>
          <select
            id="m-repeat"
            value={f.recurrence}
            onChange={(e) => edit({ recurrence: e.target.value as WindowForm['recurrence'] }, 'recurrence')}
          >
            <option value="">{t('maintenance.repeat.once')}</option>
            <option value="weekly">{t('maintenance.repeat.weekly')}</option>
            <option value="monthly">{t('maintenance.repeat.monthly')}</option>
          </select>
        </Field>
        <div className="sw-span-2">
          <MonitorChecklist
            id="m-monitors"
            legend={t('maintenance.form.affected')}
            hint={t('maintenance.form.affectedHint')}
            options={monitors}
            chosen={f.monitorIds}
            onChange={(ids) => edit({ monitorIds: ids }, 'monitorIds')}
            error={errors.monitorIds}
          />
        </div>
        <ModalActions
          onClose={onClose}
          busy={busy}
          closeLabel={t('maintenance.form.close')}
          submitLabel={w ? t('maintenance.form.save') : t('maintenance.form.schedule')}
        />
      </form>
    </Modal>
  );
}
