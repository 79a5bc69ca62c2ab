// /settings: every settings screen as a link with a line on what it holds, for the roles that
// may open it (viewers hold no company settings: they see only their own account, and are told why).
import { useStore } from '@nanostores/react';
import { useEffect, type ReactNode } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { t, tr } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { $flags, loadFlags } from '../../stores/flags.ts';

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
  /** Listed only while this feature flag is on */
  flag?: string;
}

// One entry a screen: a new settings screen is one more entry here (title and text are read when
// drawn, from alerts.settings.<screen>.*, so they are in the language shown then).
const LINKS: SettingsLink[] = [
  {
    id: 'settings-account',
    href: '/settings/account',
    get title() {
      return t('alerts.settings.account.title');
    },
    get text() {
      return t('alerts.settings.account.text');
    },
    own: true,
  },
  {
    id: 'settings-company',
    href: '/settings/company',
    get title() {
      return t('alerts.settings.company.title');
    },
    get text() {
      return t('alerts.settings.company.text');
    },
  },
  {
    id: 'settings-secrets',
    href: '/settings/secrets',
    get title() {
      return t('alerts.settings.secrets.title');
    },
    get text() {
      return t('alerts.settings.secrets.text');
    },
    everyone: true,
  },
  {
    id: 'settings-alerts',
    href: '/settings/alerts',
    get title() {
      return t('alerts.settings.alerts.title');
    },
    get text() {
      return tr('alerts.settings.alerts.text', {
        link: (chunks) => (
          <a className="sw-link" href="/notifications/deliveries">
            {chunks}
          </a>
        ),
      });
    },
  },
  {
    id: 'settings-subscribers',
    href: '/settings/subscribers',
    get title() {
      return t('alerts.settings.subscribers.title');
    },
    get text() {
      return t('alerts.settings.subscribers.text');
    },
  },
  {
    id: 'settings-escalation',
    href: '/settings/escalation',
    get title() {
      return t('alerts.settings.escalation.title');
    },
    get text() {
      return t('alerts.settings.escalation.text');
    },
  },
  {
    id: 'settings-probe-locations',
    href: '/settings/probe-locations',
    get title() {
      return t('alerts.settings.probeLocations.title');
    },
    get text() {
      return t('alerts.settings.probeLocations.text');
    },
  },
  {
    id: 'settings-platform',
    href: '/settings/platform',
    get title() {
      return t('alerts.settings.platform.title');
    },
    get text() {
      return t('alerts.settings.platform.text');
    },
    superAdminOnly: true,
  },
  {
    id: 'settings-incident-templates',
    href: '/settings/incident-templates',
    get title() {
      return t('alerts.settings.incidentTemplates.title');
    },
    get text() {
      return t('alerts.settings.incidentTemplates.text');
    },
    everyone: true,
  },
  {
    id: 'settings-audit',
    href: '/settings/audit',
    get title() {
      return t('alerts.settings.audit.title');
    },
    get text() {
      return t('alerts.settings.audit.text');
    },
    superAdminOnly: true,
  },
  {
    id: 'settings-sso',
    href: '/settings/sso',
    get title() {
      return t('alerts.settings.sso.title');
    },
    get text() {
      return t('alerts.settings.sso.text');
    },
  },
  {
    id: 'settings-anomalies',
    href: '/settings/anomalies',
    get title() {
      return t('anomalies.link.title');
    },
    get text() {
      return t('anomalies.link.text');
    },
    everyone: true,
    flag: 'ENABLE_ADVANCED_ANALYTICS',
  },
];

export function SettingsPage({ title }: { title: string }) {
  const role = useStore($role);
  const flags = useStore($flags);
  useEffect(() => {
    void loadFlags();
  }, []);
  const links = LINKS.filter(
    (l) =>
      (!l.flag || flags[l.flag] === true) &&
      (l.own || l.everyone || (can(role, 'view', 'settings') && (!l.superAdminOnly || role === 'super_admin'))),
  );
  return (
    <div className="sw-admin">
      <h2 className="sw-page-title">{title}</h2>
      {!can(role, 'view', 'settings') && (
        <p className="sw-muted" data-testid="settings-none">
          {t('alerts.settings.none')}
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
