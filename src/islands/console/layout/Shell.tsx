// The signed-in layout: skip link, navigation column, header bar, the page, toasts.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type ReactNode } from 'react';
import { $role, $user, signOut } from '../stores/auth.ts';
import { $flags } from '../stores/flags.ts';
import { $selectedTenant, $tenantOptions, loadTenantOptions, selectTenant } from '../stores/tenant.ts';
import { $unread, connectLive, disconnectLive } from '../stores/live.ts';
import { $router } from '../router.ts';
import { boot } from '../boot.ts';
import { Confirm } from '../ui/Modal.tsx';
import { Toasts } from '../ui/Toasts.tsx';
import { Icon } from '../ui/Icon.tsx';
import { activePath, menuFor, roleBadge } from './menu.ts';
import { HeaderCompany } from './HeaderCompany.tsx';
import { $mobile, $navCollapsed, closeNav, toggleNav, watchViewport } from './nav.ts';
import { t } from '../i18n.ts';

export function Shell(props: { title: string; children: ReactNode }) {
  const role = useStore($role);
  const flags = useStore($flags);
  const page = useStore($router);
  const collapsed = useStore($navCollapsed);
  const mobile = useStore($mobile);
  useEffect(watchViewport, []);
  // the tab's one live stream, for the tenant the super admin chose (others: their company)
  const tenant = useStore($selectedTenant);
  const liveScope = role === 'super_admin' ? tenant : null;
  useEffect(() => {
    if (!role) return;
    connectLive(liveScope);
  }, [role, liveScope]);
  useEffect(() => disconnectLive, []);
  const path = page?.path ?? window.location.pathname;
  const items = menuFor(role, flags);
  const current = activePath(items, path);
  return (
    <div className={`sw-shell${collapsed ? ' sw-collapsed' : ''}`}>
      {/* target _self: the client router leaves the link to the browser, which focuses #main */}
      <a className="sw-skip" href="#main" target="_self">
        {t('layout.skipToMain')}
      </a>
      <nav className="sw-nav" aria-label={t('layout.navLabel')}>
        <div className="sw-nav-top">
          <button
            type="button"
            className="sw-nav-toggle"
            aria-label={collapsed ? t('layout.expandNav') : t('layout.collapseNav')}
            aria-expanded={!collapsed}
            onClick={toggleNav}
          >
            <Icon name="menu" />
          </button>
          {!collapsed && <span className="sw-brand">{boot().productName}</span>}
        </div>
        <ul>
          {items.map((i) => {
            const active = i.path === current;
            return (
              <li key={i.path}>
                <a
                  href={i.path}
                  className={active ? 'sw-nav-item active' : 'sw-nav-item'}
                  aria-current={active ? 'page' : undefined}
                  title={i.label}
                  onClick={() => mobile && closeNav()}
                >
                  <span className="sw-nav-icon">
                    <Icon name={i.icon} />
                  </span>
                  <span className="sw-nav-label">{i.label}</span>
                </a>
              </li>
            );
          })}
        </ul>
        {!collapsed && role && (
          <div className="sw-role-badge" data-testid="role-badge">
            {roleBadge(role)}
          </div>
        )}
      </nav>
      {mobile && !collapsed && <div className="sw-overlay" data-testid="nav-overlay" aria-hidden="true" onClick={closeNav} />}
      <div className="sw-main">
        <Header title={props.title} />
        <main id="main" className="sw-content" tabIndex={-1}>
          {props.children}
        </main>
      </div>
      <Toasts />
    </div>
  );
}

function Header({ title }: { title: string }) {
  const user = useStore($user);
  const role = useStore($role);
  const flags = useStore($flags);
  const [confirming, setConfirming] = useState(false);
  const showTenants = role === 'super_admin' && flags.ENABLE_TENANT_SWITCH === true;
  const label = user?.full_name || user?.email || '';
  return (
    <header className="sw-header">
      <div className="sw-heading">
        <h1 className="sw-title">{title}</h1>
        <HeaderCompany tenantSwitch={showTenants} />
      </div>
      {showTenants && <TenantSwitch />}
      <div className="sw-user">
        <Bell />
        <span className="sw-avatar" aria-hidden="true">
          {label.charAt(0).toUpperCase()}
        </span>
        <span className="sw-user-text">
          <span className="sw-user-email">{user?.email}</span>
          <span className="sw-user-role">{roleBadge(role)}</span>
        </span>
        <a className="sw-btn sw-btn-small" href="/settings/account">
          {t('layout.account')}
        </a>
        <button type="button" className="sw-btn sw-btn-small" onClick={() => setConfirming(true)}>
          {t('layout.signOut')}
        </button>
      </div>
      {confirming && (
        <Confirm
          title={t('layout.signOut')}
          text={t('layout.signOutConfirm')}
          confirmLabel={t('layout.signOut')}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void signOut()}
        />
      )}
    </header>
  );
}

/** The header's bell: the unread count from the live stream, in its accessible name too. */
function Bell() {
  const unread = useStore($unread);
  const label = unread ? t('layout.bellUnread', { count: unread }) : t('layout.bell');
  return (
    <a href="/notifications" className="sw-bell" aria-label={label} title={label} data-testid="bell">
      <Icon name="bell" />
      {unread ? (
        <span className="sw-bell-count" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </a>
  );
}

function TenantSwitch() {
  const options = useStore($tenantOptions);
  const selected = useStore($selectedTenant);
  useEffect(() => {
    if (!options.loaded) void loadTenantOptions();
  }, [options.loaded]);
  const current = options.list.find((c) => c.id === selected);
  return (
    <div className="sw-tenant">
      <span className="sw-tenant-indicator" data-testid="tenant-indicator">
        {current ? t('layout.tenantCurrent', { name: current.name }) : t('layout.globalView')}
      </span>
      <label className="sw-visually-hidden" htmlFor="sw-tenant-select">
        {t('layout.tenant')}
      </label>
      <select id="sw-tenant-select" value={selected ?? ''} onChange={(e) => selectTenant(e.target.value || null)}>
        <option value="">{t('layout.globalViewAll')}</option>
        {options.list.map((c) => (
          <option key={c.id} value={c.id} disabled={!c.is_active}>
            {c.is_active ? c.name : t('layout.tenantInactive', { name: c.name })}
          </option>
        ))}
      </select>
      {options.error && (
        <span className="sw-tenant-error" role="alert">
          {options.error}
        </span>
      )}
    </div>
  );
}
