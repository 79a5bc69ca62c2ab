// The console's screens (spec section 2), each declared once: path, title, who may open it, its
// menu entry and its component, loaded on first use. The router (router.ts), the access rules
// (access.ts), the menus (layout/menu.ts), the header and document titles (App.tsx) and the Astro
// page (src/pages/[...path].astro) are all derived from this table.
import type { ComponentType } from 'react';
import type { Resource, Role } from '../../lib/permissions.ts';

/** What every screen is given: the path's parameters and the route's title. */
export interface ScreenProps {
  params: Record<string, string>;
  title: string;
}

/**
 * Who may open a route:
 * - 'anyone': an auth screen; it stays where it is for everyone, signed in or not;
 * - 'public': no user needed, but a signed-in company user on the main host is sent to the
 *   company's subdomain;
 * - a list of roles: signed-in users with one of them (anyone else gets 'Page Not Found').
 */
export type Audience = 'anyone' | 'public' | readonly Role[];

export interface MenuEntry {
  label: string;
  /** The company menu's label, where it differs from the super admin's */
  companyLabel?: string;
  icon: string;
  /** Shown only to roles that may view this resource... */
  resource?: Resource;
  /** ...and while this feature flag is on. Both hide the entry only; the route stays reachable. */
  flag?: string;
}

export interface RouteDef {
  /** A pattern of @nanostores/router: '/traces/:traceId' */
  path: string;
  /** The header's and the browser tab's title */
  title: string;
  audience: Audience;
  /** In the navigation column of the roles of the audience, in table order */
  menu?: MenuEntry;
  /** A public route that a signed-in user reads inside the console layout */
  shellWhenSignedIn?: boolean;
  screen: () => Promise<ComponentType<ScreenProps>>;
}

const SUPER_ADMIN = ['super_admin'] as const;
const COMPANY = ['customer_admin', 'customer_viewer'] as const;
const SIGNED_IN = [...SUPER_ADMIN, ...COMPANY] as const;
/** Those who hold the `settings` resource: viewers never see alert channels or receipts. */
const SETTINGS = ['super_admin', 'customer_admin'] as const;

/** Routes whose screen is not built yet show 'Coming Soon' with their title. */
const comingSoon = () => import('./features/placeholders/ComingSoon.tsx').then((m) => m.ComingSoon);

/** The monitor list answers at the menu's /monitors and at the spec's /my-monitors alike. */
const monitorsList = () => import('./features/monitors/MonitorsPage.tsx').then((m) => m.MonitorsPage);

/** Metrics and trace search answer at the menu's paths and at the spec's /my-… alike. */
const metricsPage = () => import('./features/metrics/MetricsPage.tsx').then((m) => m.MetricsPage);
const tracesPage = () => import('./features/traces/TracesPage.tsx').then((m) => m.TracesPage);

export const ROUTES = {
  login: {
    path: '/login',
    title: 'Sign in',
    audience: 'anyone',
    screen: () => import('./features/auth/LoginPage.tsx').then((m) => m.LoginPage),
  },
  signup: {
    path: '/signup',
    title: 'Sign up',
    audience: 'anyone',
    screen: () => import('./features/auth/SignupPage.tsx').then((m) => m.SignupPage),
  },
  companyLogin: {
    path: '/company-login',
    title: 'Sign in',
    audience: 'public',
    screen: () => import('./features/auth/LoginPage.tsx').then((m) => m.LoginPage),
  },
  forgotPassword: {
    path: '/forgotpassword',
    title: 'Forgot password',
    audience: 'anyone',
    screen: () => import('./features/auth/PasswordPages.tsx').then((m) => m.ForgotPasswordPage),
  },
  resetPassword: {
    path: '/reset-password',
    title: 'Reset password',
    audience: 'anyone',
    screen: () => import('./features/auth/PasswordPages.tsx').then((m) => m.ResetPasswordPage),
  },
  invite: {
    path: '/invite',
    title: 'Accept invitation',
    audience: 'anyone',
    screen: () => import('./features/auth/InvitePage.tsx').then((m) => m.InvitePage),
  },
  notFound: {
    path: '/notfound',
    title: 'Page Not Found',
    audience: 'anyone',
    screen: () => import('./features/errors/Screens.tsx').then((m) => m.NotFoundPage),
  },
  maintenance: {
    path: '/maintenance',
    title: 'Maintenance',
    audience: 'anyone',
    screen: () => import('./features/errors/Screens.tsx').then((m) => m.Maintenance),
  },
  notifications: {
    path: '/notifications',
    title: 'Notifications',
    audience: 'public',
    shellWhenSignedIn: true,
    screen: () => import('./features/notifications/NotificationsPage.tsx').then((m) => m.NotificationsPage),
  },
  alertDeliveries: {
    path: '/notifications/deliveries',
    title: 'Alert deliveries',
    audience: SETTINGS,
    screen: () => import('./features/alerts/DeliveriesPage.tsx').then((m) => m.DeliveriesPage),
  },
  dashboard: {
    path: '/dashboard',
    title: 'Dashboard',
    audience: SIGNED_IN,
    menu: { label: 'Dashboard', icon: 'dashboard' },
    screen: () => import('./features/dashboard/DashboardPage.tsx').then((m) => m.DashboardPage),
  },
  metrics: {
    path: '/metrics',
    title: 'Metrics',
    audience: SIGNED_IN,
    menu: { label: 'Global Metrics', companyLabel: 'My Metrics', icon: 'metrics', resource: 'metrics' },
    screen: metricsPage,
  },
  myMetrics: {
    path: '/my-metrics',
    title: 'Metrics',
    audience: SIGNED_IN,
    screen: metricsPage,
  },
  traces: {
    path: '/traces',
    title: 'Traces',
    audience: SIGNED_IN,
    menu: { label: 'All Traces', companyLabel: 'My Traces', icon: 'traces', resource: 'traces' },
    screen: tracesPage,
  },
  myTraces: {
    path: '/my-traces',
    title: 'Traces',
    audience: SIGNED_IN,
    screen: tracesPage,
  },
  trace: {
    path: '/traces/:traceId',
    title: 'Trace',
    audience: SIGNED_IN,
    screen: () => import('./features/trace/TracePage.tsx').then((m) => m.TracePage),
  },
  monitors: {
    path: '/monitors',
    title: 'Monitors',
    audience: SIGNED_IN,
    menu: { label: 'Monitors', companyLabel: 'My Monitors', icon: 'monitors', resource: 'monitors' },
    screen: monitorsList,
  },
  myMonitors: {
    path: '/my-monitors',
    title: 'Monitors',
    audience: SIGNED_IN,
    screen: monitorsList,
  },
  // Before any '/monitors/:id': a fixed segment must win over a parameter (routes match in table order).
  incidents: {
    path: '/monitors/incidents',
    title: 'Incidents',
    audience: SIGNED_IN,
    screen: () => import('./features/incidents/IncidentsPage.tsx').then((m) => m.IncidentsPage),
  },
  incident: {
    path: '/monitors/incidents/:id',
    title: 'Incident',
    audience: SIGNED_IN,
    screen: () => import('./features/incidents/IncidentPage.tsx').then((m) => m.IncidentPage),
  },
  maintenanceWindows: {
    path: '/monitors/maintenance',
    title: 'Maintenance',
    audience: SIGNED_IN,
    screen: () => import('./features/maintenance/MaintenancePage.tsx').then((m) => m.MaintenancePage),
  },
  statusPageSettings: {
    path: '/monitors/status-page',
    title: 'Status Page',
    audience: SIGNED_IN,
    menu: { label: 'Status Page', icon: 'status', resource: 'monitors' },
    screen: () => import('./features/status-page/StatusPageSettingsPage.tsx').then((m) => m.StatusPageSettingsPage),
  },
  // After the fixed /monitors/incidents, /monitors/maintenance and /monitors/status-page, which must win over ':id'.
  monitor: {
    path: '/monitors/:id',
    title: 'Monitor',
    audience: SIGNED_IN,
    screen: () => import('./features/monitors/MonitorPage.tsx').then((m) => m.MonitorPage),
  },
  apiIntelligence: {
    path: '/api-intelligence',
    title: 'API Intelligence',
    audience: SIGNED_IN,
    menu: { label: 'API Intelligence', icon: 'api', resource: 'api_intelligence', flag: 'ENABLE_API_INTELLIGENCE' },
    screen: () => import('./features/api-intelligence/ApiIntelligencePage.tsx').then((m) => m.ApiIntelligencePage),
  },
  security: {
    path: '/security',
    title: 'Security',
    audience: SIGNED_IN,
    // The spec's entry (resource threat_intelligence, flag ENABLE_THREAT_INTELLIGENCE); the screen
    // shows each analysis while its own flag is on.
    menu: { label: 'Security', icon: 'security', resource: 'threat_intelligence', flag: 'ENABLE_THREAT_INTELLIGENCE' },
    screen: () => import('./features/security/SecurityPage.tsx').then((m) => m.SecurityPage),
  },
  // Reached from the security overview and from DNS warnings (the spec's menu has no entry of its own).
  domainChecks: {
    path: '/domain-checks',
    title: 'Domains and DNS',
    audience: SIGNED_IN,
    screen: () => import('./features/domain-checks/DomainChecksPage.tsx').then((m) => m.DomainChecksPage),
  },
  // Not in the menu: the spec's navigation names /security only; its screen and the ssl_warning
  // notifications lead here.
  sslMonitoring: {
    path: '/ssl-monitoring',
    title: 'SSL/TLS monitoring',
    audience: SIGNED_IN,
    screen: () => import('./features/ssl/SslMonitoringPage.tsx').then((m) => m.SslMonitoringPage),
  },
  sslTarget: {
    path: '/ssl-monitoring/:id',
    title: 'Certificate',
    audience: SIGNED_IN,
    screen: () => import('./features/ssl/SslTargetPage.tsx').then((m) => m.SslTargetPage),
  },
  vulnerabilityScans: {
    path: '/vulnerability-scans',
    title: 'Vulnerability Scans',
    // No menu entry of its own: the spec's menu has Security (/security), which leads here.
    audience: SIGNED_IN,
    screen: () => import('./features/vulnerability-scans/VulnerabilityScansPage.tsx').then((m) => m.VulnerabilityScansPage),
  },
  threatIntelligence: {
    path: '/threat-intelligence',
    title: 'Threat Intelligence',
    audience: SIGNED_IN,
    screen: () => import('./features/threat-intelligence/ThreatIntelligencePage.tsx').then((m) => m.ThreatIntelligencePage),
  },
  reports: {
    path: '/reports',
    title: 'Reports',
    audience: SIGNED_IN,
    menu: { label: 'Reports', icon: 'reports', resource: 'reports', flag: 'ENABLE_REPORTS' },
    screen: () => import('./features/reports/ReportsPage.tsx').then((m) => m.ReportsPage),
  },
  adminUsers: {
    path: '/admin/users',
    title: 'Users Management',
    audience: SUPER_ADMIN,
    menu: { label: 'Users', icon: 'users', resource: 'users', flag: 'ENABLE_USER_MGMT' },
    screen: () => import('./features/users/UsersPage.tsx').then((m) => m.UsersPage),
  },
  team: {
    path: '/team',
    title: 'Team',
    audience: SIGNED_IN,
    menu: { label: 'Team', icon: 'team', resource: 'users', flag: 'ENABLE_USER_MGMT' },
    screen: () => import('./features/team/TeamPage.tsx').then((m) => m.TeamPage),
  },
  adminTenants: {
    path: '/admin/tenants',
    title: 'Tenants Management',
    audience: SUPER_ADMIN,
    menu: { label: 'Tenants', icon: 'tenants', resource: 'tenants' },
    screen: () => import('./features/tenants/TenantsPage.tsx').then((m) => m.TenantsPage),
  },
  settings: {
    path: '/settings',
    title: 'Settings',
    audience: SIGNED_IN,
    menu: { label: 'Settings', icon: 'settings', resource: 'settings' },
    screen: () => import('./features/alerts/SettingsPage.tsx').then((m) => m.SettingsPage),
  },
  companySettings: {
    path: '/settings/company',
    title: 'Company settings',
    audience: SETTINGS,
    screen: () => import('./features/settings/CompanySettingsPage.tsx').then((m) => m.CompanySettingsPage),
  },
  platformSettings: {
    path: '/settings/platform',
    title: 'Platform settings',
    audience: SUPER_ADMIN,
    screen: () => import('./features/settings/PlatformSettingsPage.tsx').then((m) => m.PlatformSettingsPage),
  },
  auditLog: {
    path: '/settings/audit',
    title: 'Audit log',
    audience: SUPER_ADMIN,
    screen: () => import('./features/settings/AuditLogPage.tsx').then((m) => m.AuditLogPage),
  },
  account: {
    path: '/settings/account',
    title: 'Account',
    audience: SIGNED_IN,
    screen: () => import('./features/account/AccountPage.tsx').then((m) => m.AccountPage),
  },
  alertChannels: {
    path: '/settings/alerts',
    title: 'Alerts',
    audience: SETTINGS,
    screen: () => import('./features/alerts/ChannelsPage.tsx').then((m) => m.ChannelsPage),
  },
  subscribers: {
    path: '/settings/subscribers',
    title: 'Status page subscribers',
    audience: SETTINGS,
    screen: () => import('./features/subscribers/SubscribersPage.tsx').then((m) => m.SubscribersPage),
  },
  escalation: {
    path: '/settings/escalation',
    title: 'Escalation policy',
    audience: SETTINGS,
    screen: () => import('./features/escalation/EscalationPage.tsx').then((m) => m.EscalationPage),
  },
  backendTest: {
    path: '/backend-test',
    title: 'Backend Test',
    audience: SUPER_ADMIN,
    screen: () => import('./features/backend-test/BackendTestPage.tsx').then((m) => m.BackendTestPage),
  },
} as const satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof ROUTES;

export const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];

/** A table entry, seen as its declared type. */
export function routeDef(name: RouteName): RouteDef {
  return ROUTES[name];
}

/** Public routes need no user; of them, 'anyone' routes never move a signed-in user elsewhere. */
export function isPublic(name: RouteName): boolean {
  const a = routeDef(name).audience;
  return a === 'anyone' || a === 'public';
}

export function mayOpen(name: RouteName, role: Role): boolean {
  const a = routeDef(name).audience;
  return typeof a !== 'string' && a.includes(role);
}

function patternOf(path: string): RegExp {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\/:\w+/g, '/[^/]+');
  return new RegExp(`^${escaped}$`);
}
const PATTERNS = ROUTE_NAMES.map((name) => [name, patternOf(routeDef(name).path)] as const);

/**
 * The route whose Astro page answers a path: as Astro's file routes did, case-sensitive, one
 * trailing slash ignored, a parameter is one segment. (The client router ignores case.)
 */
export function routeAt(pathname: string): RouteName | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  return PATTERNS.find(([, re]) => re.test(path))?.[0];
}
