// /admin/tenants 'Tenants Management' (spec sections 2, 5 and 8).
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { boot } from '../../boot.ts';
import { t } from '../../i18n.ts';
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
        {t('tenants.accessDenied')}
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
      crumb={t('tenants.crumb')}
      title={t('tenants.title')}
      createLabel={t('tenants.create')}
      onCreate={() => {
        $tenantAlert.set(null);
        setEditing('new');
      }}
      alert={editing ? null : alert}
      load={companies}
      onRetry={() => void loadCompanies()}
      listTitle={t('tenants.listTitle')}
      listId="all-tenants"
      empty={t('tenants.empty')}
      columns={[
        t('tenants.col.name'),
        t('tenants.col.subdomain'),
        t('tenants.col.email'),
        t('tenants.col.status'),
        t('tenants.col.users'),
        t('tenants.col.created'),
        t('tenants.col.actions'),
      ]}
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
          c.subdomain || t('tenants.noSubdomain'),
          c.email,
          <span className={c.is_active ? 'sw-pill sw-green' : 'sw-pill sw-grey'}>
            {c.is_active ? t('tenants.active') : t('tenants.inactive')}
          </span>,
          `${c.user_count ?? 0} / ${c.max_users}`,
          fmtDate(c.created_at),
          <>
            <button
              type="button"
              className="sw-btn sw-btn-small"
              aria-label={t('tenants.editAria', { name: c.name })}
              onClick={() => {
                $tenantAlert.set(null);
                setEditing(c);
              }}
            >
              {t('tenants.edit')}
            </button>
            <button
              type="button"
              className="sw-btn sw-btn-small sw-btn-danger"
              aria-label={t('tenants.deleteAria', { name: c.name })}
              onClick={() => setDeleting(c)}
            >
              {t('tenants.delete')}
            </button>
          </>,
        ],
      })}
    >
      {editing && <TenantModal company={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <Confirm
          title={t('tenants.deleteTitle')}
          danger
          confirmLabel={t('tenants.delete')}
          text={t('tenants.deleteText')}
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

const SERVICE_LABELS = (): Array<[keyof Services, string]> => [
  ['monitor', t('tenants.service.monitor')],
  ['security', t('tenants.service.security')],
  ['data_breach', t('tenants.service.dataBreach')],
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
    <Modal title={company ? t('tenants.editTitle') : t('tenants.createTitle')} onClose={onClose} wide>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
        <FormAlert text={alert && !alert.ok ? alert.text : null} />
        <Field id="t-name" label={t('tenants.form.name')} required error={errors.name}>
          <input id="t-name" value={f.name} onChange={set('name')} required />
        </Field>
        <Field id="t-email" label={t('tenants.form.email')} required error={errors.email}>
          <input id="t-email" type="email" value={f.email} onChange={set('email')} required />
        </Field>
        <Field
          id="t-sub"
          label={t('tenants.form.subdomain')}
          required
          error={errors.subdomain}
          hint={t('tenants.form.subdomainHint', { host: `${f.subdomain || t('tenants.form.subdomainExample')}.${domain}` })}
        >
          <input
            id="t-sub"
            value={f.subdomain}
            onChange={(e) => setF({ ...f, subdomain: e.target.value.toLowerCase() })}
            required
            aria-describedby="t-sub-hint"
          />
        </Field>
        <Field id="t-url" label={t('tenants.form.url')} error={errors.url}>
          <input id="t-url" type="url" value={f.url} onChange={set('url')} placeholder="https://example.com" />
        </Field>
        <Field id="t-phone" label={t('tenants.form.phone')}>
          <input id="t-phone" type="tel" value={f.phone} onChange={set('phone')} />
        </Field>
        <Field id="t-max" label={t('tenants.form.maxUsers')} error={errors.maxUsers}>
          <input id="t-max" type="number" min={1} value={f.maxUsers} onChange={set('maxUsers')} />
        </Field>
        <Field id="t-plan" label={t('tenants.form.plan')}>
          <select id="t-plan" value={f.plan} onChange={set('plan')}>
            <option value="starter">{t('tenants.plan.starter')}</option>
            <option value="professional">{t('tenants.plan.professional')}</option>
            <option value="enterprise">{t('tenants.plan.enterprise')}</option>
          </select>
        </Field>
        <Field id="t-status" label={t('tenants.form.status')}>
          <select id="t-status" value={f.status} onChange={set('status')}>
            <option value="active">{t('tenants.active')}</option>
            <option value="inactive">{t('tenants.inactive')}</option>
          </select>
        </Field>
        <Field id="t-primary" label={t('tenants.form.primaryColor')} error={errors.primaryColor}>
          <input id="t-primary" type="color" value={f.primaryColor} onChange={set('primaryColor')} />
        </Field>
        <Field id="t-secondary" label={t('tenants.form.secondaryColor')} error={errors.secondaryColor}>
          <input id="t-secondary" type="color" value={f.secondaryColor} onChange={set('secondaryColor')} />
        </Field>
        <LogoField label={t('tenants.form.logo')} value={f.logo} onChange={(logo) => setF({ ...f, logo })} />
        <LogoField
          label={t('tenants.form.horizontalLogo')}
          value={f.horizontalLogo}
          onChange={(horizontalLogo) => setF({ ...f, horizontalLogo })}
        />
        <fieldset className="sw-fieldset sw-span-2">
          <legend>{t('tenants.form.services')}</legend>
          {SERVICE_LABELS().map(([key, label]) => (
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
        <ModalActions onClose={onClose} busy={busy} submitLabel={company ? t('tenants.update') : t('tenants.create')} />
      </form>
    </Modal>
  );
}
