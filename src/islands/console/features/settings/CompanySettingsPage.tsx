// /settings/company: the company's profile and branding (the tenant form's fields a company admin
// may change), its address (subdomain), its plan and usage, and its OTLP ingest keys. A company admin works on their own
// company; a super admin on the company chosen in the header.
import { useStore } from '@nanostores/react';
import { useEffect, type FormEvent } from 'react';
import { $role, $user } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { ErrorPanel, Skeleton } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { useModalForm } from '../../ui/ModalForm.tsx';
import { LogoField } from '../../ui/LogoField.tsx';
import {
  $company,
  $profileAlert,
  $usage,
  loadCompanySettings,
  profileFormOf,
  saveProfile,
  settingsCompanyId,
  validateProfile,
  type Company,
} from './store.ts';
import { IngestKeys } from './IngestKeys.tsx';
import { CompanyAddress } from './CompanyAddress.tsx';
import { DefaultLocations } from './DefaultLocations.tsx';
import { DefaultLanguage } from './DefaultLanguage.tsx';
import { ScimCard } from './ScimCard.tsx';
import './settings.css';

export function CompanySettingsPage({ title }: { title: string }) {
  const role = useStore($role);
  const user = useStore($user);
  const chosen = useStore($selectedTenant);
  const superAdmin = role === 'super_admin';
  const companyId = settingsCompanyId(role, user?.company_id, chosen);
  useEffect(() => {
    $profileAlert.set(null);
    if (companyId) void loadCompanySettings(companyId, superAdmin);
  }, [companyId, superAdmin]);
  return (
    <div className="sw-admin sw-settings">
      <nav aria-label="Breadcrumb" className="sw-breadcrumb">
        <a href="/settings">Settings</a> / <span aria-current="page">Company</span>
      </nav>
      <h2 className="sw-page-title">{title}</h2>
      {companyId ? (
        <>
          <Profile />
          <CompanyAddress />
          <DefaultLocations />
          <DefaultLanguage />
          <Usage />
          <IngestKeys companyId={companyId} superAdmin={superAdmin} />
          {role === 'customer_admin' && <ScimCard />}
        </>
      ) : (
        <p className="sw-banner sw-banner-info" role="status">
          Choose a company in the header to see and change its settings.
        </p>
      )}
    </div>
  );
}

function Profile() {
  const company = useStore($company);
  return (
    <section className="sw-card" aria-labelledby="settings-profile">
      <header className="sw-card-head">
        <h3 id="settings-profile">Profile and branding</h3>
      </header>
      {company.status === 'loading' && <Skeleton rows={4} />}
      {company.status === 'error' && <ErrorPanel message={company.message} />}
      {company.status === 'ready' && <ProfileForm key={company.data.id} company={company.data} />}
    </section>
  );
}

function ProfileForm({ company }: { company: Company }) {
  const superAdmin = useStore($role) === 'super_admin';
  const alert = useStore($profileAlert);
  const { f, setF, errors, busy, edit, send } = useModalForm(() => profileFormOf(company));
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => edit({ [k]: e.target.value }, k);
  async function submit(e: FormEvent) {
    e.preventDefault();
    await send(validateProfile(f), () => saveProfile(company, f, superAdmin));
  }
  return (
    <form className="sw-form sw-form-grid sw-card-body" onSubmit={submit} noValidate aria-label="Company profile">
      {alert && (
        <div className={`sw-span-2 sw-banner ${alert.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
          {alert.text}
        </div>
      )}
      <Field id="p-name" label="Company Name" required error={errors.name}>
        <input id="p-name" value={f.name} onChange={set('name')} required maxLength={200} />
      </Field>
      <Field id="p-url" label="Website URL" error={errors.url}>
        <input id="p-url" type="url" value={f.url} onChange={set('url')} placeholder="https://example.com" />
      </Field>
      <Field id="p-phone" label="Phone" error={errors.phone}>
        <input id="p-phone" type="tel" value={f.phone} onChange={set('phone')} />
      </Field>
      <div className="sw-settings-colours">
        <Field id="p-primary" label="Primary Color" error={errors.primaryColor}>
          <input id="p-primary" type="color" value={f.primaryColor} onChange={set('primaryColor')} />
        </Field>
        <Field id="p-secondary" label="Secondary Color" error={errors.secondaryColor}>
          <input id="p-secondary" type="color" value={f.secondaryColor} onChange={set('secondaryColor')} />
        </Field>
      </div>
      <LogoField label="Logo" value={f.logo} onChange={(logo) => setF({ ...f, logo })} />
      <LogoField label="Horizontal logo" value={f.horizontalLogo} onChange={(horizontalLogo) => setF({ ...f, horizontalLogo })} />
      <p className="sw-span-2 sw-muted sw-small">
        Your status page{company.subdomain ? ` (${company.subdomain})` : ''} shows this name, logo and colours. Plan and user limit are
        changed by the platform’s super admins.
      </p>
      <div className="sw-span-2 sw-modal-actions">
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          Save profile
        </button>
      </div>
    </form>
  );
}

function UsedOf({ label, used, limit, unit }: { label: string; used: number; limit: number | null; unit: string }) {
  return (
    <div className="sw-usage-row">
      <div className="sw-row-between">
        <span>{label}</span>
        <strong>
          {used} of {limit ?? 'unlimited'} {unit}
        </strong>
      </div>
      {limit !== null && <meter className="sw-usage-meter" aria-label={label} min={0} max={limit} high={limit * 0.9} value={used} />}
    </div>
  );
}

function Usage() {
  const usage = useStore($usage);
  return (
    <section className="sw-card" aria-labelledby="settings-usage" data-testid="settings-usage">
      <header className="sw-card-head">
        <h3 id="settings-usage">Plan and usage</h3>
        {usage.status === 'ready' && (
          <span className="sw-pill sw-grey">{`${usage.data.plan[0].toUpperCase()}${usage.data.plan.slice(1)} plan`}</span>
        )}
      </header>
      <div className="sw-card-body">
        {usage.status === 'loading' && <Skeleton rows={3} />}
        {usage.status === 'error' && <ErrorPanel message={usage.message} />}
        {usage.status === 'ready' && (
          <>
            <UsedOf label="Monitors" used={usage.data.monitors.used} limit={usage.data.monitors.limit} unit="monitors" />
            <p className="sw-muted sw-small">Archived monitors do not count.</p>
            <UsedOf label="Users" used={usage.data.users.used} limit={usage.data.users.limit} unit="users" />
            <dl className="sw-usage-facts">
              <dt>Trace ingest</dt>
              <dd>{usage.data.spans_per_second.toLocaleString('en')} spans a second</dd>
              <dt>Retention</dt>
              <dd>{usage.data.retention_days} days of check results, spans and metrics</dd>
            </dl>
          </>
        )}
      </div>
    </section>
  );
}
