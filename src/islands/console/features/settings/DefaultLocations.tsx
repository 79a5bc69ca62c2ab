// The company's default locations (issue 27): where its monitors without their own list are
// checked from. None ticked saves null, the built-in engine alone (as before issue 27).
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { $role } from '../../stores/auth.ts';
import { t } from '../../i18n.ts';
import { $locationOptions, loadLocationOptions, locationsOf } from '../../stores/location-options.ts';
import { LocationChecklist } from '../../ui/LocationChecklist.tsx';
import { $company, $defaultLocationsAlert, saveDefaultLocations, type Company } from './store.ts';

export function DefaultLocations() {
  const company = useStore($company);
  useEffect(() => {
    $defaultLocationsAlert.set(null);
    void loadLocationOptions();
  }, []);
  return (
    <section className="sw-card" aria-labelledby="settings-locations" data-testid="settings-default-locations">
      <header className="sw-card-head">
        <h3 id="settings-locations">{t('settings.locations.title')}</h3>
      </header>
      {company.status === 'ready' && <DefaultLocationsForm key={company.data.id} company={company.data} />}
    </section>
  );
}

function DefaultLocationsForm({ company }: { company: Company }) {
  const superAdmin = useStore($role) === 'super_admin';
  const alert = useStore($defaultLocationsAlert);
  const options = locationsOf(useStore($locationOptions), superAdmin ? company.id : null);
  const [chosen, setChosen] = useState<string[]>(company.default_locations ?? ['local']);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="sw-form sw-card-body"
      aria-label={t('settings.locations.title')}
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        // The built-in engine alone is the stored default (null): no list to keep up to date.
        const same = chosen.length === 0 || (chosen.length === 1 && chosen[0] === 'local');
        await saveDefaultLocations(company, same ? null : chosen, superAdmin);
        setBusy(false);
      }}
    >
      {alert && (
        <div className={`sw-banner ${alert.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
          {alert.text}
        </div>
      )}
      <LocationChecklist
        id="default-locations"
        legend={t('settings.locations.legend')}
        hint={t('settings.locations.hint')}
        options={options}
        chosen={chosen}
        onChange={setChosen}
      />
      <div className="sw-modal-actions">
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          {t('settings.locations.save')}
        </button>
      </div>
    </form>
  );
}
