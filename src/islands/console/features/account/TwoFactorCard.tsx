// The two-factor card of /settings/account: off (set up), enrolling (QR key and a first code),
// the recovery codes shown once, and on (turn off with a code or the password).
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { Card, LoadView } from '../../ui/Card.tsx';
import { $twoFactor, startEnrolment, type Enrolment } from './store.ts';
import { Banner } from './Banner.tsx';
import { EnrolForm, RecoveryCodes, DisableForm } from './TwoFactorForms.tsx';
import { t } from '../../i18n.ts';

export function TwoFactorCard() {
  const status = useStore($twoFactor);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function start() {
    setBusy(true);
    setError(null);
    const r = await startEnrolment();
    setBusy(false);
    if (r.ok) setEnrolment(r.data);
    else setError(r.text);
  }
  return (
    <Card title={t('account.twoFactorCard.twoFactorSignIn')} testId="two-factor">
      <Banner ok={false} text={error} />
      {recovery ? (
        <RecoveryCodes codes={recovery} onDone={() => setRecovery(null)} />
      ) : enrolment ? (
        <EnrolForm
          enrolment={enrolment}
          onCancel={() => setEnrolment(null)}
          onEnabled={(codes) => {
            setEnrolment(null);
            setRecovery(codes);
          }}
        />
      ) : (
        <LoadView load={status} isEmpty={() => false} empty="" rows={1}>
          {(s) =>
            s.enabled ? (
              <>
                <p>
                  <span className="sw-pill sw-green">{t('account.twoFactorCard.on')}</span>{' '}
                  {t('account.twoFactorCard.signingInAsksForA', { recoveryCodesLeft: s.recovery_codes_left })}
                </p>
                <DisableForm />
              </>
            ) : (
              <>
                <p>
                  <span className="sw-pill sw-grey">{t('account.twoFactorCard.off')}</span> {t('account.twoFactorCard.addASecondStepTo')}
                </p>
                <button type="button" className="sw-btn sw-btn-primary" disabled={busy} onClick={() => void start()}>
                  {t('account.twoFactorCard.setUpTwoFactorSign')}
                </button>
              </>
            )
          }
        </LoadView>
      )}
    </Card>
  );
}
