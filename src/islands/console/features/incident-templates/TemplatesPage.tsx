// /settings/incident-templates: the company's prepared incident and maintenance texts, offered by
// "Use template" when writing an incident or scheduling maintenance. Every member sees them; a
// company admin (or a super admin, on the company chosen in the header) adds, edits and deletes.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { t, tr } from '../../i18n.ts';
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
  impactChoices,
  loadTemplates,
  saveTemplate,
  validateTemplate,
  type Template,
  type TemplateForm,
} from './store.ts';

const kindLabel = (kind: Template['kind']) =>
  kind === 'incident' ? t('incidentTemplates.kind.incident') : t('incidentTemplates.kind.maintenance');

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
      <nav aria-label={t('incidentTemplates.breadcrumb')} className="sw-breadcrumb">
        <a href="/settings">{t('incidentTemplates.settings')}</a> / <span aria-current="page">{t('incidentTemplates.crumb')}</span>
      </nav>
      <h2 className="sw-page-title">{title}</h2>
      {!companyKnown ? (
        <p className="sw-banner sw-banner-info" role="status">
          {t('incidentTemplates.chooseCompany')}
        </p>
      ) : (
        <section className="sw-card" aria-labelledby="templates-title">
          <header className="sw-card-head sw-row-between">
            <h3 id="templates-title">{t('incidentTemplates.head', { count: templates.status === 'ready' ? templates.data.length : 0 })}</h3>
            {admin && (
              <button type="button" className="sw-btn sw-btn-primary" onClick={() => setEditing('new')}>
                {t('incidentTemplates.add')}
              </button>
            )}
          </header>
          <div className="sw-card-body">
            <p className="sw-muted sw-small">
              {tr('incidentTemplates.intro', {
                strong: (chunks) => <strong>{chunks}</strong>,
                incident: (chunks) => (
                  <a className="sw-link" href="/monitors/incidents">
                    {chunks}
                  </a>
                ),
                maintenance: (chunks) => (
                  <a className="sw-link" href="/monitors/maintenance">
                    {chunks}
                  </a>
                ),
              })}
              {!admin && ` ${t('incidentTemplates.adminsOnly')}`}
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
                rowKey={(tpl) => tpl.id}
                empty={t('incidentTemplates.empty')}
                columns={[
                  { label: t('incidentTemplates.col.name'), cell: (tpl) => <strong>{tpl.name}</strong> },
                  { label: t('incidentTemplates.col.for'), cell: (tpl) => kindLabel(tpl.kind) },
                  { label: t('incidentTemplates.col.title'), cell: (tpl) => <span className="sw-wrap-anywhere">{tpl.title}</span> },
                  {
                    label: t('incidentTemplates.col.impact'),
                    cell: (tpl) => (tpl.impact ? (impactChoices().find(([v]) => v === tpl.impact)?.[1] ?? tpl.impact) : '—'),
                  },
                  admin && {
                    label: t('incidentTemplates.col.actions'),
                    className: 'sw-actions',
                    cell: (tpl: Template) => (
                      <>
                        <button
                          type="button"
                          className="sw-btn sw-btn-small"
                          aria-label={t('incidentTemplates.editOne', { name: tpl.name })}
                          onClick={() => setEditing(tpl)}
                        >
                          {t('incidentTemplates.edit')}
                        </button>
                        <button
                          type="button"
                          className="sw-btn sw-btn-small sw-btn-danger"
                          aria-label={t('incidentTemplates.deleteOne', { name: tpl.name })}
                          onClick={() => setDeleting(tpl)}
                        >
                          {t('incidentTemplates.delete')}
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
          title={t('incidentTemplates.deleteTitle')}
          danger
          confirmLabel={t('incidentTemplates.delete')}
          text={t('incidentTemplates.confirmDelete', { name: deleting.name })}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const gone = deleting;
            setDeleting(null);
            void deleteTemplate(gone, tenant);
          }}
        />
      )}
    </div>
  );
}

function TemplateDialog({ t: tpl, tenant, onClose }: { t: Template | null; tenant: string | null; onClose: () => void }) {
  const monitors = useStore($monitorOptions);
  const { f, errors, setErrors, busy, edit, send } = useModalForm<TemplateForm>(tpl ? formOf(tpl) : emptyTemplate());
  const [alert, setAlert] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const o = await send(validateTemplate(f), () => saveTemplate(tpl?.id ?? null, f, tenant));
    if (!o) return;
    if (o.ok) return onClose();
    setAlert(o.text);
    setErrors({ ...o.fields, ...(o.fields.monitor_ids ? { monitorIds: o.fields.monitor_ids } : {}) });
  }
  const incident = f.kind === 'incident';
  return (
    <Modal title={tpl ? t('incidentTemplates.editOne', { name: tpl.name }) : t('incidentTemplates.add')} onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <FormAlert text={alert} />
        <Field id="t-name" label={t('incidentTemplates.col.name')} required error={errors.name} hint={t('incidentTemplates.nameHint')}>
          <input id="t-name" value={f.name} maxLength={100} onChange={(e) => edit({ name: e.target.value }, 'name')} />
        </Field>
        <Field id="t-kind" label={t('incidentTemplates.col.for')} required error={errors.kind}>
          <select id="t-kind" value={f.kind} onChange={(e) => edit({ kind: e.target.value as TemplateForm['kind'] }, 'kind')}>
            <Options
              items={[
                ['incident', t('incidentTemplates.kind.incidents')],
                ['maintenance', t('incidentTemplates.kind.maintenance')],
              ]}
            />
          </select>
        </Field>
        <div className="sw-span-2">
          <Field id="t-title" label={t('incidentTemplates.col.title')} required error={errors.title}>
            <input id="t-title" value={f.title} maxLength={300} onChange={(e) => edit({ title: e.target.value }, 'title')} />
          </Field>
        </div>
        {incident && (
          <Field id="t-impact" label={t('incidentTemplates.col.impact')} required error={errors.impact}>
            <select id="t-impact" value={f.impact} onChange={(e) => edit({ impact: e.target.value as TemplateForm['impact'] }, 'impact')}>
              <Options items={impactChoices()} />
            </select>
          </Field>
        )}
        <div className="sw-span-2">
          <Field
            id="t-message"
            label={incident ? t('incidentTemplates.message') : t('incidentTemplates.description')}
            error={errors.message}
          >
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
            legend={t('incidentTemplates.monitors')}
            hint={t('incidentTemplates.monitorsHint')}
            options={monitors}
            chosen={f.monitorIds}
            onChange={(ids) => edit({ monitorIds: ids }, 'monitorIds')}
            error={errors.monitorIds}
          />
        </div>
        <ModalActions
          onClose={onClose}
          busy={busy}
          closeLabel={t('incidentTemplates.close')}
          submitLabel={tpl ? t('incidentTemplates.save') : t('incidentTemplates.add')}
        />
      </form>
    </Modal>
  );
}
