// /settings: every settings screen as a link with a line on what it holds, for the roles that
// may open it (viewers hold no company settings: they see only their own account, and are told why).
import { useStore } from '@nanostores/react';
import type { ReactNode } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { $role } from '../../stores/auth.ts';

interface SettingsLink {
  id: string;
  href: string;
  title: string;
  text: ReactNode;
  superAdminOnly?: boolean;
  /** Everyone's own (viewers too), not a company setting */
  own?: boolean;
  /** A company setting every member reads (viewers see it, only admins change it) */
  everyone?: boolean;
}

// One entry a screen: a new settings screen is one more line here.
const LINKS: SettingsLink[] = [
  {
    id: 'settings-account',
    href: '/settings/account',
    title: 'Account',
    text: 'Your own sign-in: two-factor sign-in with an authenticator app, API tokens for scripts, your password and your active sessions.',
    own: true,
  },
  {
    id: 'settings-company',
    href: '/settings/company',
    title: 'Company',
    text: 'Your company’s name, website, phone, logos and colours (what your status page wears), your plan and what you use of it, and the OTLP ingest keys your services and browser pages send traces with.',
  },
  {
    id: 'settings-secrets',
    href: '/settings/secrets',
    title: 'Secrets',
    text: 'Passwords and tokens that API flow and browser monitors use in their steps as {{secrets.NAME}}: stored encrypted, never shown again, with the monitors that use each one.',
    everyone: true,
  },
  {
    id: 'settings-alerts',
    href: '/settings/alerts',
    title: 'Alerts',
    text: (
      <>
        Channels that alerts go to (webhook, e-mail, Slack, Teams, PagerDuty and more), and the{' '}
        <a className="sw-link" href="/notifications/deliveries">
          receipts
        </a>{' '}
        of every delivery.
      </>
    ),
  },
  {
    id: 'settings-subscribers',
    href: '/settings/subscribers',
    title: 'Status page subscribers',
    text: 'Visitors who get your status page’s incident and maintenance notices by e-mail or webhook, with their counts.',
  },
  {
    id: 'settings-escalation',
    href: '/settings/escalation',
    title: 'Escalation',
    text: 'Whom to alert next when nobody acknowledges an incident, for example Slack at once, then an SMS to the on-call admin after 10 minutes.',
  },
  {
    id: 'settings-probe-locations',
    href: '/settings/probe-locations',
    title: 'Probe locations',
    text: 'Where checks run from besides the built-in engine: public locations of the platform and your private ones inside your own network, with the tokens their probes sign in with.',
  },
  {
    id: 'settings-platform',
    href: '/settings/platform',
    title: 'Platform',
    text: 'Feature flags (those the operator set are locked), whether signup is open, and a test mail through the configured SMTP server.',
    superAdminOnly: true,
  },
  {
    id: 'settings-incident-templates',
    href: '/settings/incident-templates',
    title: 'Incident templates',
    text: 'Prepared titles, messages, impact and monitors for the incidents and maintenance you write often, offered by Use template in those forms.',
    everyone: true,
  },
  {
    id: 'settings-audit',
    href: '/settings/audit',
    title: 'Audit log',
    text: 'Who did what and when: sign-ins, changes to companies, users, monitors and settings, filtered by event, user, company and time.',
    superAdminOnly: true,
  },
  {
    id: 'settings-sso',
    href: '/settings/sso',
    title: 'Single sign-on',
    text: 'Sign-in through your identity provider (OpenID Connect: Okta, Entra ID, Keycloak, Google): new people get an account with the role their groups map to, and Require SSO turns passwords off.',
  },
];

export function SettingsPage({ title }: { title: string }) {
  const role = useStore($role);
  const links = LINKS.filter(
    (l) => l.own || l.everyone || (can(role, 'view', 'settings') && (!l.superAdminOnly || role === 'super_admin')),
  );
  return (
    <div className="sw-admin">
      <h2 className="sw-page-title">{title}</h2>
      {!can(role, 'view', 'settings') && (
        <p className="sw-muted" data-testid="settings-none">
          Settings are kept by your company’s admins. Ask one of them to change the company’s profile, alerts or keys.
        </p>
      )}
      {links.map((l) => (
        <section key={l.id} className="sw-card" aria-labelledby={l.id}>
          <header className="sw-card-head">
            <h3 id={l.id}>
              <a className="sw-link" href={l.href}>
                {l.title}
              </a>
            </h3>
          </header>
          <p>{l.text}</p>
        </section>
      ))}
    </div>
  );
}
