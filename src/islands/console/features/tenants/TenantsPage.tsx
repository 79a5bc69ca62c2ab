// /admin/tenants 'Tenants Management' (spec sections 2, 5 and 8).
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { boot } from '../../boot.ts';
import { $role } from '../../stores/auth.ts';
import { Field } from '../../ui/Field.tsx';
import { FormAlert, ModalActions, useModalForm } from '../../ui/ModalForm.tsx';
import { fmtDate } from '../../ui/format.ts';
import { Confirm, Modal } from '../../ui/Modal.tsx';
import { ListPage } from '../../ui/ListPage.tsx';
import {
  $companies,
  $tenantAlert,
  createCompany,
  deleteCompany,
  EMPTY_TENANT_FORM,
  formOf,
  loadCompanies,
  updateCompany,
  validateTenant,
  type Services,
  type Company,
  type TenantForm,
} from './store.ts';
import { LogoField } from '../../ui/LogoField.tsx';

export function TenantsPage() {
  const role = useStore($role);
  if (!can(role, 'view', 'tenants'))
    return (
      <div className="sw-banner sw-banner-error" role="alert">
        Access denied. Super admin privileges required.
      </div>
    );
  return <Tenants />;
}

function Tenants() {
  const companies = useStore($companies);
  const alert = useStore($tenantAlert);
  const [editing, setEditing] = useState<Company | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Company | null>(null);
  useEffect(() => {
    $tenantAlert.set(null);
    void loadCompanies();
  }, []);
  return (
    <ListPage
      crumb="Tenants"
      title="Tenants Management"
      createLabel="Create Tenant"
      onCreate={() => {
        $tenantAlert.set(null);
        setEditing('new');
      }}
      alert={editing ? null : alert}
      load={companies}
      onRetry={() => void loadCompanies()}
      listTitle="All Tenants"
      listId="all-tenants"
      empty="No tenants found. Create your first tenant to get started."
      columns={['Name', 'Subdomain', 'Email', 'Status', 'Users', 'Created', 'Actions']}
      row={(c) => ({
        key: c.id,
        cells: [
          <>
            <strong>{c.name}</strong>
            {c.url && (
              <div>
                <a href={c.url} target="_blank" rel="noopener noreferrer external" className="sw-small">
                  {c.url}
                </a>
              </div>
            )}
          </>,
          c.subdomain || 'N/A',
          c.email,
          <span className={c.is_active ? 'sw-pill sw-green' : 'sw-pill sw-grey'}>{c.is_active ? 'Active' : 'Inactive'}</span>,
          `${c.user_count ?? 0} / ${c.max_users}`,
          fmtDate(c.created_at),
          <>
            <button
              type="button"
              className="sw-btn sw-btn-small"
              aria-label={`Edit ${c.name}`}
              onClick={() => {
                $tenantAlert.set(null);
                setEditing(c);
              }}
            >
              Edit
            </button>
            <button
              type="button"
              className="sw-btn sw-btn-small sw-btn-danger"
              aria-label={`Delete ${c.name}`}
              onClick={() => setDeleting(c)}
            >
              Delete
            </button>
          </>,
        ],
      })}
    >
      {editing && <TenantModal company={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <Confirm
          title="Delete Tenant"
          danger
          confirmLabel="Delete"
          text="Are you sure you want to delete this company? This action cannot be undone."
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const id = deleting.id;
            setDeleting(null);
            void deleteCompany(id);
          }}
        />
      )}
    </ListPage>
  );
}

const SERVICE_LABELS: Array<[keyof Services, string]> = [
  ['monitor', 'Monitoring'],
  ['security', 'Security'],
  ['data_breach', 'Data breach'],
];

function TenantModal({ company, onClose }: { company: Company | null; onClose: () => void }) {
  const { f, setF, errors, busy, edit, send } = useModalForm<TenantForm>(company ? formOf(company) : EMPTY_TENANT_FORM);
  const set = (k: keyof TenantForm) => (e: { target: { value: string } }) => edit({ [k]: e.target.value }, k);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await send(validateTenant(f), () => (company ? updateCompany(company, f) : createCompany(f)));
    if (ok) onClose();
  }
  const domain = boot().productDomain;
  const alert = useStore($tenantAlert);
  return (
    <Modal title={company ? 'Edit Tenant' : 'Create New Tenant'} onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <FormAlert text={alert && !alert.ok ? alert.text : null} />
        <Field id="t-name" label="Company Name" required error={errors.name}>
          <input id="t-name" value={f.name} onChange={set('name')} required />
        </Field>
        <Field id="t-email" label="Email" required error={errors.email}>
          <input id="t-email" type="email" value={f.email} onChange={set('email')} required />
        </Field>
        <Field
          id="t-sub"
          label="Subdomain"
          required
          error={errors.subdomain}
          hint={`Used as a host prefix: ${f.subdomain || 'name'}.${domain}`}
        >
          <input
            id="t-sub"
            value={f.subdomain}
            onChange={(e) => setF({ ...f, subdomain: e.target.value.toLowerCase() })}
            required
            aria-describedby="t-sub-hint"
          />
        </Field>
        <Field id="t-url" label="Website URL" error={errors.url}>
          <input id="t-url" type="url" value={f.url} onChange={set('url')} placeholder="https://example.com" />
        </Field>
        <Field id="t-phone" label="Phone">
          <input id="t-phone" type="tel" value={f.phone} onChange={set('phone')} />
        </Field>
        <Field id="t-max" label="Max Users" error={errors.maxUsers}>
          <input id="t-max" type="number" min={1} value={f.maxUsers} onChange={set('maxUsers')} />
        </Field>
        <Field id="t-plan" label="Plan">
          <select id="t-plan" value={f.plan} onChange={set('plan')}>
            <option value="starter">Starter</option>
            <option value="professional">Professional</option>
            <option value="enterprise">Enterprise</option>
          </select>
        </Field>
        <Field id="t-status" label="Status">
          <select id="t-status" value={f.status} onChange={set('status')}>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </select>
        </Field>
        <Field id="t-primary" label="Primary Color" error={errors.primaryColor}>
          <input id="t-primary" type="color" value={f.primaryColor} onChange={set('primaryColor')} />
        </Field>
        <Field id="t-secondary" label="Secondary Color" error={errors.secondaryColor}>
          <input id="t-secondary" type="color" value={f.secondaryColor} onChange={set('secondaryColor')} />
        </Field>
        <LogoField label="Logo" value={f.logo} onChange={(logo) => setF({ ...f, logo })} />
        <LogoField label="Horizontal logo" value={f.horizontalLogo} onChange={(horizontalLogo) => setF({ ...f, horizontalLogo })} />
        <fieldset className="sw-fieldset sw-span-2">
          <legend>Services</legend>
          {SERVICE_LABELS.map(([key, label]) => (
            <label key={key} className="sw-check">
              <input
                type="checkbox"
                checked={f.services[key]}
                onChange={(e) => setF({ ...f, services: { ...f.services, [key]: e.target.checked } })}
              />
              {label}
            </label>
          ))}
        </fieldset>
        <ModalActions onClose={onClose} busy={busy} submitLabel={company ? 'Update Tenant' : 'Create Tenant'} />
      </form>
    </Modal>
  );
}
