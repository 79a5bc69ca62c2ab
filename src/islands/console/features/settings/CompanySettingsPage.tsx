// /settings/company: the company's profile and branding (the tenant form's fields a company admin
// may change), its address (subdomain), its plan and usage, and its OTLP ingest keys. A company admin works on their own
// company; a super admin on the company chosen in the header.
import { useStore } from '@nanostores/react';
import { useEffect, type FormEvent } from 'react';
import { $role, $user } from '../../stores/auth.ts';
import { consoleLocale, t } from '../../i18n.ts';
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
import { IncidentSummaryCard } from './IncidentSummaryCard.tsx';
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
      <nav aria-label={t('settings.breadcrumb')} className="sw-breadcrumb">
        <a href="/settings">{t('settings.settings')}</a> / <span aria-current="page">{t('settings.company.crumb')}</span>
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
          <IncidentSummaryCard companyId={companyId} />
        </>
      ) : (
        <p className="sw-banner sw-banner-info" role="status">
          {t('settings.company.chooseCompany')}
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
        <h3 id="settings-profile">{t('settings.profile.title')}</h3>
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
    <form className="sw-form sw-form-grid sw-card-body" onSubmit={submit} noValidate aria-label={t('settings.profile.formLabel')}>
      {alert && (
        <div className={`sw-span-2 sw-banner ${alert.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
          {alert.text}
        </div>
      )}
      <Field id="p-name" label={t('settings.profile.name')} required error={errors.name}>
        <input id="p-name" value={f.name} onChange={set('name')} required maxLength={200} />
      </Field>
      <Field id="p-url" label={t('settings.profile.url')} error={errors.url}>
        <input id="p-url" type="url" value={f.url} onChange={set('url')} placeholder="https://example.com" />
      </Field>
      <Field id="p-phone" label={t('settings.profile.phone')} error={errors.phone}>
        <input id="p-phone" type="tel" value={f.phone} onChange={set('phone')} />
      </Field>
      <div className="sw-settings-colours">
        <Field id="p-primary" label={t('settings.profile.primaryColor')} error={errors.primaryColor}>
          <input id="p-primary" type="color" value={f.primaryColor} onChange={set('primaryColor')} />
        </Field>
        <Field id="p-secondary" label={t('settings.profile.secondaryColor')} error={errors.secondaryColor}>
          <input id="p-secondary" type="color" value={f.secondaryColor} onChange={set('secondaryColor')} />
        </Field>
      </div>
      <LogoField label={t('settings.profile.logo')} value={f.logo} onChange={(logo) => setF({ ...f, logo })} />
      <LogoField
        label={t('settings.profile.horizontalLogo')}
        value={f.horizontalLogo}
        onChange={(horizontalLogo) => setF({ ...f, horizontalLogo })}
      />
      <p className="sw-span-2 sw-muted sw-small">
        {company.subdomain ? t('settings.profile.noteWithSubdomain', { subdomain: company.subdomain }) : t('settings.profile.note')}
      </p>
      <div className="sw-span-2 sw-modal-actions">
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          {t('settings.profile.save')}
        </button>
      </div>
    </form>
  );
}

function UsedOf({
  label,
  used,
  limit,
  messageKey,
}: {
  label: string;
  used: number;
  limit: number | null;
  messageKey: 'settings.usage.monitorsUsed' | 'settings.usage.usersUsed';
}) {
  const n = new Intl.NumberFormat(consoleLocale());
  return (
    <div className="sw-usage-row">
      <div className="sw-row-between">
        <span>{label}</span>
        <strong>{t(messageKey, { used: n.format(used), limit: limit === null ? t('settings.usage.unlimited') : n.format(limit) })}</strong>
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
        <h3 id="settings-usage">{t('settings.usage.title')}</h3>
        {usage.status === 'ready' && (
          <span className="sw-pill sw-grey">
            {t('settings.usage.plan', { plan: `${usage.data.plan[0].toUpperCase()}${usage.data.plan.slice(1)}` })}
          </span>
        )}
      </header>
      <div className="sw-card-body">
        {usage.status === 'loading' && <Skeleton rows={3} />}
        {usage.status === 'error' && <ErrorPanel message={usage.message} />}
        {usage.status === 'ready' && (
          <>
            <UsedOf
              label={t('settings.usage.monitors')}
              used={usage.data.monitors.used}
              limit={usage.data.monitors.limit}
              messageKey="settings.usage.monitorsUsed"
            />
            <p className="sw-muted sw-small">{t('settings.usage.archivedDoNotCount')}</p>
            <UsedOf
              label={t('settings.usage.users')}
              used={usage.data.users.used}
              limit={usage.data.users.limit}
              messageKey="settings.usage.usersUsed"
            />
            <dl className="sw-usage-facts">
              <dt>{t('settings.usage.traceIngest')}</dt>
              <dd>
                {t('settings.usage.spansPerSecond', { count: new Intl.NumberFormat(consoleLocale()).format(usage.data.spans_per_second) })}
              </dd>
              <dt>{t('settings.usage.retention')}</dt>
              <dd>{t('settings.usage.retentionDays', { days: usage.data.retention_days })}</dd>
            </dl>
          </>
        )}
      </div>
    </section>
  );
}
