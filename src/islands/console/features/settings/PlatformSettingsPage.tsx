// /settings/platform (super admins): feature flags (the operator's FLAG_ENABLE_* overrides shown
// locked, with the reason), whether signup is open (an environment setting: read-only here),
// whether company admins may invite teammates, and the mail setup with a test mail to the
// signed-in super admin.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { $user } from '../../stores/auth.ts';
import { t, tr } from '../../i18n.ts';
import { FLAG_LABELS } from '../../../../lib/labels.ts';
import { consoleLabel } from '../../labels.ts';
import { ErrorPanel, Skeleton } from '../../ui/Card.tsx';
import { $platform, $platformAlert, loadPlatform, sendSmtpTest, setCompanyAdminsInvite, setFlag, type PlatformSettings } from './store.ts';
import './settings.css';

export function PlatformSettingsPage({ title }: { title: string }) {
  const platform = useStore($platform);
  const alert = useStore($platformAlert);
  useEffect(() => {
    $platformAlert.set(null);
    void loadPlatform();
  }, []);
  return (
    <div className="sw-admin sw-settings">
      <nav aria-label={t('settings.breadcrumb')} className="sw-breadcrumb">
        <a href="/settings">{t('settings.settings')}</a> / <span aria-current="page">{t('settings.platform.crumb')}</span>
      </nav>
      <h2 className="sw-page-title">{title}</h2>
      {alert && (
        <div className={`sw-banner ${alert.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
          {alert.text}
        </div>
      )}
      {platform.status === 'loading' && <Skeleton rows={6} />}
      {platform.status === 'error' && <ErrorPanel message={platform.message} />}
      {platform.status === 'ready' && (
        <>
          <Flags flags={platform.data.flags} />
          <Signup p={platform.data} />
          <TeamInvitations p={platform.data} />
          <Mail p={platform.data} />
        </>
      )}
    </div>
  );
}

function Flags({ flags }: { flags: PlatformSettings['flags'] }) {
  const [busy, setBusy] = useState<string | null>(null);
  return (
    <section className="sw-card" aria-labelledby="platform-flags">
      <header className="sw-card-head">
        <h3 id="platform-flags">{t('settings.platform.flags')}</h3>
      </header>
      <div className="sw-card-body">
        <ul className="sw-flag-list">
          {flags.map((f) => (
            <li key={f.name} data-testid={`flag-${f.name}`}>
              <label>
                <input
                  type="checkbox"
                  checked={f.enabled}
                  disabled={f.locked || busy === f.name}
                  aria-describedby={f.locked ? `lock-${f.name}` : undefined}
                  onChange={async (e) => {
                    setBusy(f.name);
                    await setFlag(f.name, e.target.checked);
                    setBusy(null);
                  }}
                />
                {consoleLabel('flag', FLAG_LABELS, f.name)}
              </label>
              {f.locked && (
                <span className="sw-flag-lock" id={`lock-${f.name}`}>
                  {t('settings.platform.locked', { reason: f.reason })}
                </span>
              )}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function Signup({ p }: { p: PlatformSettings }) {
  return (
    <section className="sw-card" aria-labelledby="platform-signup">
      <header className="sw-card-head">
        <h3 id="platform-signup">{t('settings.platform.signup')}</h3>
        <span className={`sw-pill ${p.signup_enabled ? 'sw-green' : 'sw-grey'}`} data-testid="signup-state">
          {p.signup_enabled ? t('settings.platform.open') : t('settings.platform.closed')}
        </span>
      </header>
      <div className="sw-card-body">
        <p>{p.signup_enabled ? t('settings.platform.signupOpen') : t('settings.platform.signupClosed')}</p>
        <p className="sw-settings-note">{tr('settings.platform.signupNote', { code: (chunks) => <code>{chunks}</code> })}</p>
      </div>
    </section>
  );
}

function TeamInvitations({ p }: { p: PlatformSettings }) {
  const [busy, setBusy] = useState(false);
  // shown at once; the reload after the save (or its failure) sets it from the server again
  const [on, setOn] = useState(p.company_admins_invite);
  useEffect(() => setOn(p.company_admins_invite), [p.company_admins_invite]);
  return (
    <section className="sw-card" aria-labelledby="platform-invitations">
      <header className="sw-card-head">
        <h3 id="platform-invitations">{t('settings.platform.invitations')}</h3>
        <span className={`sw-pill ${p.company_admins_invite ? 'sw-green' : 'sw-grey'}`}>
          {p.company_admins_invite ? t('settings.platform.companyAdminsInvite') : t('settings.platform.superAdminsOnly')}
        </span>
      </header>
      <div className="sw-card-body">
        <label className="sw-check">
          <input
            type="checkbox"
            checked={on}
            disabled={busy}
            aria-describedby="platform-invitations-note"
            onChange={async (e) => {
              const wanted = e.target.checked;
              setOn(wanted);
              setBusy(true);
              if (!(await setCompanyAdminsInvite(wanted))) setOn(!wanted);
              setBusy(false);
            }}
          />
          {t('settings.platform.mayInvite')}
        </label>
        <p className="sw-settings-note" id="platform-invitations-note">
          {t('settings.platform.invitationsNote')}{' '}
          {p.company_admins_invite_source !== 'default'
            ? t('settings.platform.recorded')
            : p.signup_enabled
              ? t('settings.platform.followsSignupOpen')
              : t('settings.platform.followsSignupClosed')}
        </p>
      </div>
    </section>
  );
}

function Mail({ p }: { p: PlatformSettings }) {
  const me = useStore($user);
  const [busy, setBusy] = useState(false);
  return (
    <section className="sw-card" aria-labelledby="platform-mail">
      <header className="sw-card-head">
        <h3 id="platform-mail">{t('settings.platform.mail')}</h3>
        <span className={`sw-pill ${p.smtp_configured ? 'sw-green' : 'sw-amber'}`}>
          {p.smtp_configured ? t('settings.platform.smtpConfigured') : t('settings.platform.noSmtp')}
        </span>
      </header>
      <div className="sw-card-body">
        <p>{p.smtp_configured ? t('settings.platform.mailSent', { from: p.mail_from ?? '' }) : t('settings.platform.mailLogged')}</p>
        {/* Without an SMTP server there is nothing to test: the button stays, disabled, with the reason beside it. */}
        <button
          type="button"
          className="sw-btn sw-btn-primary"
          disabled={busy || !p.smtp_configured}
          aria-describedby={p.smtp_configured ? undefined : 'platform-mail-why'}
          onClick={async () => {
            setBusy(true);
            await sendSmtpTest();
            setBusy(false);
          }}
        >
          {me?.email ? t('settings.platform.sendTestTo', { email: me.email }) : t('settings.platform.sendTest')}
        </button>
        {!p.smtp_configured && (
          <p id="platform-mail-why" className="sw-settings-note">
            {t('settings.platform.testNeedsSmtp')}
          </p>
        )}
      </div>
    </section>
  );
}
