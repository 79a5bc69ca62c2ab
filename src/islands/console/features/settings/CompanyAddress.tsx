// Settings → Company, "Address": the company's subdomain, checked live as at signup (issue 25
// item 4). Moving confirms first (the old address stops working at once and everyone signs in
// again); the admin who moves it is taken to the new address, signed in.
import { useStore } from '@nanostores/react';
import { useState, type FormEvent } from 'react';
import { boot } from '../../boot.ts';
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
        <h3 id="settings-address">Address</h3>
      </header>
      <form className="sw-form sw-card-body" onSubmit={submit} noValidate aria-label="Company address">
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
        <p className="sw-muted sw-small">
          Your status page, sign-in and console live at this address. Moving frees the old one at once: it no longer leads to your company
          (another company may take it), links sent before (invitations, password resets, subscriber mails) stop working, and everyone signs
          in again at the new address.
        </p>
        <div className="sw-modal-actions">
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy || !wanted || wanted === current}>
            Change address
          </button>
        </div>
      </form>
      {confirming && (
        <Confirm
          title="Change the company's address"
          confirmLabel="Change address"
          text={`Move ${company.name} from ${current ?? '(none)'} to ${wanted}? The old address stops working at once and everyone signs in again at the new one.`}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void move()}
        />
      )}
    </section>
  );
}
