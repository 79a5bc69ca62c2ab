// /settings: the settings built so far as links (alert channels, their receipts, the escalation
// policy and status page subscribers, for those who hold settings); the rest is still to come.
import { useStore } from '@nanostores/react';
import { can } from '../../../../lib/permissions.ts';
import { $role } from '../../stores/auth.ts';

export function SettingsPage({ title }: { title: string }) {
  const role = useStore($role);
  return (
    <div className="sw-admin">
      <h2 className="sw-page-title">{title}</h2>
      <section className="sw-card" aria-labelledby="settings-account">
        <header className="sw-card-head">
          <h3 id="settings-account">
            <a className="sw-link" href="/settings/account">
              Account
            </a>
          </h3>
        </header>
        <p>Your own sign-in: two-factor sign-in with an authenticator app, API tokens for scripts, and your password.</p>
      </section>
      {can(role, 'view', 'settings') && (
        <section className="sw-card" aria-labelledby="settings-alerts">
          <header className="sw-card-head">
            <h3 id="settings-alerts">
              <a className="sw-link" href="/settings/alerts">
                Alerts
              </a>
            </h3>
          </header>
          <p>
            Channels that alerts go to (webhook, e-mail, Slack, Teams, PagerDuty and more), and the{' '}
            <a className="sw-link" href="/notifications/deliveries">
              receipts
            </a>{' '}
            of every delivery.
          </p>
        </section>
      )}
      {can(role, 'view', 'settings') && (
        <section className="sw-card" aria-labelledby="settings-subscribers">
          <header className="sw-card-head">
            <h3 id="settings-subscribers">
              <a className="sw-link" href="/settings/subscribers">
                Status page subscribers
              </a>
            </h3>
          </header>
          <p>Visitors who get your status page's incident and maintenance notices by e-mail or webhook, with their counts.</p>
        </section>
      )}
      {can(role, 'view', 'settings') && (
        <section className="sw-card" aria-labelledby="settings-escalation">
          <header className="sw-card-head">
            <h3 id="settings-escalation">
              <a className="sw-link" href="/settings/escalation">
                Escalation
              </a>
            </h3>
          </header>
          <p>
            Whom to alert next when nobody acknowledges an incident, for example Slack at once, then an SMS to the on-call admin after 10
            minutes.
          </p>
        </section>
      )}
      <div className="sw-panel sw-center-text">
        <p className="sw-coming-soon-text">Coming Soon</p>
        <p>More settings are being built.</p>
      </div>
    </div>
  );
}
