// Changes which monitors an incident affects (the public page names each one and marks its
// component). An automatic incident keeps the monitor the checks opened it for.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { FormAlert, ModalActions, useModalForm } from '../../ui/ModalForm.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { MonitorChecklist } from '../../ui/MonitorChecklist.tsx';
import { $monitorOptions, loadMonitorOptions } from '../../stores/monitor-options.ts';
import { editIncident, type IncidentDetail } from './store.ts';

export function AffectedMonitorsDialog({ i, onClose, onSaved }: { i: IncidentDetail; onClose: () => void; onSaved: () => void }) {
  const monitors = useStore($monitorOptions);
  const { f, errors, setErrors, busy, edit, send } = useModalForm({ monitorIds: i.monitor_ids });
  const [alert, setAlert] = useState<string | null>(null);
  useEffect(() => {
    void loadMonitorOptions(i.company_id);
  }, [i.company_id]);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const o = await send({}, () => editIncident(i.id, { monitor_ids: f.monitorIds }));
    if (!o) return;
    if (o.ok) {
      onSaved();
      return onClose();
    }
    setAlert(o.text);
    setErrors(o.fields.monitor_ids ? { monitorIds: o.fields.monitor_ids } : {});
  }
  return (
    <Modal title="Affected monitors" onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <FormAlert text={alert} />
        <div className="sw-span-2">
          <MonitorChecklist
            id="i-edit-monitors"
            legend="Monitors this incident affects"
            hint={i.automatic ? 'The monitor the checks opened it for stays.' : 'None chosen: the whole service.'}
            options={monitors}
            chosen={f.monitorIds}
            onChange={(ids) => edit({ monitorIds: ids }, 'monitorIds')}
            error={errors.monitorIds}
          />
        </div>
        <ModalActions onClose={onClose} busy={busy} submitLabel="Save monitors" />
      </form>
    </Modal>
  );
}
