// Changes which monitors an incident affects (the public page names each one and marks its
// component). An automatic incident keeps the monitor the checks opened it for.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { FormAlert, ModalActions, useModalForm } from '../../ui/ModalForm.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { MonitorChecklist } from '../../ui/MonitorChecklist.tsx';
import { $monitorOptions, loadMonitorOptions } from '../../stores/monitor-options.ts';
import { editIncident, type IncidentDetail } from './store.ts';
import { t } from '../../i18n.ts';

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
    <Modal title={t('incidents.affectedMonitorsDialog.affectedMonitors')} onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <FormAlert text={alert} />
        <div className="sw-span-2">
          <MonitorChecklist
            id="i-edit-monitors"
            legend={t('incidents.affectedMonitorsDialog.monitorsThisIncidentAffects')}
            hint={
              i.automatic
                ? t('incidents.affectedMonitorsDialog.theMonitorTheChecksOpened')
                : t('incidents.affectedMonitorsDialog.noneChosenTheWholeService')
            }
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
