// Settings → Company, "Address": the company's subdomain, checked live as at signup (issue 25
// item 4). Moving confirms first (the old address stops working at once and everyone signs in
// again); the admin who moves it is taken to the new address, signed in.
import { useStore } from '@nanostores/react';
import { useState, type FormEvent } from 'react';
import { boot } from '../../boot.ts';
import { t } from '../../i18n.ts';
import { Confirm } from '../../ui/Modal.tsx';
import { SubdomainField } from '../../ui/SubdomainField.tsx';
import { $company, changeSubdomain, type Company } from './store.ts';

export function CompanyAddress() {
  const company = useStore($company);
  if (company.status !== 'ready') return null;
  return <AddressForm key={`${company.data.id}-${company.data.subdomain}`} company={company.data} />;
}

function AddressForm({ company }: { company: Company }) {
  const [subdomain, setSubdomain] = useState(company.subdomain ?? '');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; field?: string } | null>(null);
  const wanted = subdomain.trim().toLowerCase();
  const current = company.subdomain ?? null;
  const here = current ? `${location.protocol}//${current}.${boot().productDomain}${location.port ? `:${location.port}` : ''}` : null;
  function submit(e: FormEvent) {
    e.preventDefault();
    if (wanted && wanted !== current) setConfirming(true);
  }
  async function move() {
    setConfirming(false);
    setBusy(true);
    const r = await changeSubdomain(company, wanted);
    setBusy(false);
    setOutcome(r);
    if (r.redirectTo) location.assign(r.redirectTo);
  }
  return (
    <section className="sw-card" aria-labelledby="settings-address">
      <header className="sw-card-head">
        <h3 id="settings-address">{t('settings.address.title')}</h3>
      </header>
      <form className="sw-form sw-card-body" onSubmit={submit} noValidate aria-label={t('settings.address.formLabel')}>
        {outcome && (
          <div className={`sw-banner ${outcome.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
            {outcome.text}
          </div>
        )}
        <SubdomainField
          id="p-subdomain"
          required
          markRequired
          value={subdomain}
          current={current}
          currentAddress={here}
          error={outcome?.field}
          onChange={(v) => {
            setSubdomain(v);
            setOutcome(null);
          }}
        />
        <p className="sw-muted sw-small">{t('settings.address.note')}</p>
        <div className="sw-modal-actions">
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy || !wanted || wanted === current}>
            {t('settings.address.change')}
          </button>
        </div>
      </form>
      {confirming && (
        <Confirm
          title={t('settings.address.confirmTitle')}
          confirmLabel={t('settings.address.change')}
          text={t('settings.address.confirmText', { company: company.name, from: current ?? t('settings.address.none'), to: wanted })}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void move()}
        />
      )}
    </section>
  );
}
