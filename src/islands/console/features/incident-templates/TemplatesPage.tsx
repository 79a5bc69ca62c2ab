// /settings/incident-templates: the company's prepared incident and maintenance texts, offered by
// "Use template" when writing an incident or scheduling maintenance. Every member sees them; a
// company admin (or a super admin, on the company chosen in the header) adds, edits and deletes.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { $role, $user } from '../../stores/auth.ts';
import { $monitorOptions, loadMonitorOptions } from '../../stores/monitor-options.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { ErrorPanel, Skeleton } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { Confirm, Modal } from '../../ui/Modal.tsx';
import { FormAlert, ModalActions, Options, useModalForm } from '../../ui/ModalForm.tsx';
import { MonitorChecklist } from '../../ui/MonitorChecklist.tsx';
import { Table } from '../../ui/Table.tsx';
import {
  $templates,
  $templatesAlert,
  deleteTemplate,
  emptyTemplate,
  formOf,
  IMPACT_CHOICES,
  loadTemplates,
  saveTemplate,
  validateTemplate,
  type Template,
  type TemplateForm,
} from './store.ts';

const KIND_LABEL: Record<Template['kind'], string> = { incident: 'Incident', maintenance: 'Maintenance' };

export function TemplatesPage({ title }: { title: string }) {
  const role = useStore($role);
  const user = useStore($user);
  const chosen = useStore($selectedTenant);
  const superAdmin = role === 'super_admin';
  const tenant = superAdmin ? chosen : null;
  const companyKnown = superAdmin ? !!chosen : !!user?.company_id;
  const admin = can(role, 'update', 'monitors');
  const templates = useStore($templates);
  const alert = useStore($templatesAlert);
  const [editing, setEditing] = useState<Template | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Template | null>(null);
  useEffect(() => {
    $templatesAlert.set(null);
    if (!companyKnown) return;
    void loadTemplates(tenant);
    void loadMonitorOptions(tenant);
  }, [tenant, companyKnown]);

  return (
    <div className="sw-admin sw-settings">
      <nav aria-label="Breadcrumb" className="sw-breadcrumb">
        <a href="/settings">Settings</a> / <span aria-current="page">Incident templates</span>
      </nav>
      <h2 className="sw-page-title">{title}</h2>
      {!companyKnown ? (
        <p className="sw-banner sw-banner-info" role="status">
          Choose a company in the header to see its templates.
        </p>
      ) : (
        <section className="sw-card" aria-labelledby="templates-title">
          <header className="sw-card-head sw-row-between">
            <h3 id="templates-title">Templates ({templates.status === 'ready' ? templates.data.length : 0})</h3>
            {admin && (
              <button type="button" className="sw-btn sw-btn-primary" onClick={() => setEditing('new')}>
                Add template
              </button>
            )}
          </header>
          <div className="sw-card-body">
            <p className="sw-muted sw-small">
              Prepared words for the incidents and maintenance you write often: choose one with <strong>Use template</strong> in{' '}
              <a className="sw-link" href="/monitors/incidents">
                Write incident
              </a>{' '}
              or{' '}
              <a className="sw-link" href="/monitors/maintenance">
                Schedule maintenance
              </a>
              , then change anything before publishing.
              {!admin && ' Only your company’s admins can add, edit or delete them.'}
            </p>
            {alert && (
              <div className={`sw-banner ${alert.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
                {alert.text}
              </div>
            )}
            {templates.status === 'loading' && <Skeleton rows={2} />}
            {templates.status === 'error' && <ErrorPanel message={templates.message} />}
            {templates.status === 'ready' && (
              <Table
                aria-labelledby="templates-title"
                rows={templates.data}
                rowKey={(t) => t.id}
                empty="No templates yet."
                columns={[
                  { label: 'Name', cell: (t) => <strong>{t.name}</strong> },
                  { label: 'For', cell: (t) => KIND_LABEL[t.kind] },
                  { label: 'Title', cell: (t) => <span className="sw-wrap-anywhere">{t.title}</span> },
                  {
                    label: 'Impact',
                    cell: (t) => (t.impact ? (IMPACT_CHOICES.find(([v]) => v === t.impact)?.[1] ?? t.impact) : '—'),
                  },
                  admin && {
                    label: 'Actions',
                    className: 'sw-actions',
                    cell: (t: Template) => (
                      <>
                        <button type="button" className="sw-btn sw-btn-small" aria-label={`Edit ${t.name}`} onClick={() => setEditing(t)}>
                          Edit
                        </button>
                        <button
                          type="button"
                          className="sw-btn sw-btn-small sw-btn-danger"
                          aria-label={`Delete ${t.name}`}
                          onClick={() => setDeleting(t)}
                        >
                          Delete
                        </button>
                      </>
                    ),
                  },
                ]}
              />
            )}
          </div>
        </section>
      )}
      {editing && <TemplateDialog t={editing === 'new' ? null : editing} tenant={tenant} onClose={() => setEditing(null)} />}
      {deleting && (
        <Confirm
          title="Delete template"
          danger
          confirmLabel="Delete"
          text={`Delete the template "${deleting.name}"? Incidents and maintenance written from it stay as they are.`}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const t = deleting;
            setDeleting(null);
            void deleteTemplate(t, tenant);
          }}
        />
      )}
    </div>
  );
}

function TemplateDialog({ t, tenant, onClose }: { t: Template | null; tenant: string | null; onClose: () => void }) {
  const monitors = useStore($monitorOptions);
  const { f, errors, setErrors, busy, edit, send } = useModalForm<TemplateForm>(t ? formOf(t) : emptyTemplate());
  const [alert, setAlert] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const o = await send(validateTemplate(f), () => saveTemplate(t?.id ?? null, f, tenant));
    if (!o) return;
    if (o.ok) return onClose();
    setAlert(o.text);
    setErrors({ ...o.fields, ...(o.fields.monitor_ids ? { monitorIds: o.fields.monitor_ids } : {}) });
  }
  const incident = f.kind === 'incident';
  return (
    <Modal title={t ? `Edit ${t.name}` : 'Add template'} onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <FormAlert text={alert} />
        <Field id="t-name" label="Name" required error={errors.name} hint="How Use template lists it">
          <input id="t-name" value={f.name} maxLength={100} onChange={(e) => edit({ name: e.target.value }, 'name')} />
        </Field>
        <Field id="t-kind" label="For" required error={errors.kind}>
          <select id="t-kind" value={f.kind} onChange={(e) => edit({ kind: e.target.value as TemplateForm['kind'] }, 'kind')}>
            <Options
              items={[
                ['incident', 'Incidents'],
                ['maintenance', 'Maintenance'],
              ]}
            />
          </select>
        </Field>
        <div className="sw-span-2">
          <Field id="t-title" label="Title" required error={errors.title}>
            <input id="t-title" value={f.title} maxLength={300} onChange={(e) => edit({ title: e.target.value }, 'title')} />
          </Field>
        </div>
        {incident && (
          <Field id="t-impact" label="Impact" required error={errors.impact}>
            <select id="t-impact" value={f.impact} onChange={(e) => edit({ impact: e.target.value as TemplateForm['impact'] }, 'impact')}>
              <Options items={IMPACT_CHOICES} />
            </select>
          </Field>
        )}
        <div className="sw-span-2">
          <Field id="t-message" label={incident ? 'Message' : 'Description'} error={errors.message}>
            <textarea
              id="t-message"
              rows={4}
              maxLength={5000}
              value={f.message}
              onChange={(e) => edit({ message: e.target.value }, 'message')}
            />
          </Field>
        </div>
        <div className="sw-span-2">
          <MonitorChecklist
            id="t-monitors"
            legend="Affected monitors"
            hint="None chosen: the form keeps its own choice."
            options={monitors}
            chosen={f.monitorIds}
            onChange={(ids) => edit({ monitorIds: ids }, 'monitorIds')}
            error={errors.monitorIds}
          />
        </div>
        <ModalActions onClose={onClose} busy={busy} closeLabel="Close" submitLabel={t ? 'Save changes' : 'Add template'} />
      </form>
    </Modal>
  );
}
