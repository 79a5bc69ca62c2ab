// The console's screens (spec section 2), each declared once: path, title, who may open it, its
// menu entry; its component, loaded on first use, is in screens.ts, which the app alone imports
// (so no screen's store, through api.ts and access.ts, leads back here). The router (router.ts), the access rules
// (access.ts), the menus (layout/menu.ts), the header and document titles (App.tsx) and the Astro
// page (src/pages/[...path].astro) are all derived from this table.
import type { Resource, Role } from '../../lib/permissions.ts';
import type { ConsoleKey } from '../../lib/i18n/messages/console/index.ts';

export type { ScreenProps } from './ui/screen-props.ts';

/**
 * Who may open a route:
 * - 'anyone': an auth screen; it stays where it is for everyone, signed in or not;
 * - 'public': no user needed, but a signed-in company user on the main host is sent to the
 *   company's subdomain;
 * - a list of roles: signed-in users with one of them (anyone else gets 'Page Not Found').
 */
export type Audience = 'anyone' | 'public' | readonly Role[];

export interface MenuEntry {
  /** The entry's text (a key of the console catalogue: 'routes.<name>.menu') */
  label: ConsoleKey;
  /** The company menu's label, where it differs from the super admin's */
  companyLabel?: ConsoleKey;
  icon: string;
  /** Shown only to roles that may view this resource... */
  resource?: Resource;
  /** ...and while this feature flag is on. Both hide the entry only; the route stays reachable. */
  flag?: string;
}

export interface RouteDef {
  /** A pattern of @nanostores/router: '/traces/:traceId' */
  path: string;
  /** The header's and the browser tab's title (a key of the console catalogue: 'routes.<name>.title') */
  title: ConsoleKey;
  audience: Audience;
  /** In the navigation column of the roles of the audience, in table order */
  menu?: MenuEntry;
  /** A public route that a signed-in user reads inside the console layout */
  shellWhenSignedIn?: boolean;
}

const SUPER_ADMIN = ['super_admin'] as const;
const COMPANY = ['customer_admin', 'customer_viewer'] as const;
const SIGNED_IN = [...SUPER_ADMIN, ...COMPANY] as const;
/** Those who hold the `settings` resource: viewers never see alert channels or receipts. */
const SETTINGS = ['super_admin', 'customer_admin'] as const;

export const ROUTES = {
  login: {
    path: '/login',
    title: 'routes.login.title',
    audience: 'anyone',
  },
  signup: {
    path: '/signup',
    title: 'routes.signup.title',
    audience: 'anyone',
  },
  companyLogin: {
    path: '/company-login',
    title: 'routes.companyLogin.title',
    audience: 'public',
  },
  forgotPassword: {
    path: '/forgotpassword',
    title: 'routes.forgotPassword.title',
    audience: 'anyone',
  },
  resetPassword: {
    path: '/reset-password',
    title: 'routes.resetPassword.title',
    audience: 'anyone',
  },
  invite: {
    path: '/invite',
    title: 'routes.invite.title',
    audience: 'anyone',
  },
  notFound: {
    path: '/notfound',
    title: 'routes.notFound.title',
    audience: 'anyone',
  },
  maintenance: {
    path: '/maintenance',
    title: 'routes.maintenance.title',
    audience: 'anyone',
  },
  notifications: {
    path: '/notifications',
    title: 'routes.notifications.title',
    audience: 'public',
    shellWhenSignedIn: true,
  },
  alertDeliveries: {
    path: '/notifications/deliveries',
    title: 'routes.alertDeliveries.title',
    audience: SETTINGS,
  },
  dashboard: {
    path: '/dashboard',
    title: 'routes.dashboard.title',
    audience: SIGNED_IN,
    menu: { label: 'routes.dashboard.menu', icon: 'dashboard' },
  },
  metrics: {
    path: '/metrics',
    title: 'routes.metrics.title',
    audience: SIGNED_IN,
    menu: { label: 'routes.metrics.menu', companyLabel: 'routes.metrics.menuCompany', icon: 'metrics', resource: 'metrics' },
  },
  myMetrics: {
    path: '/my-metrics',
    title: 'routes.myMetrics.title',
    audience: SIGNED_IN,
  },
  traces: {
    path: '/traces',
    title: 'routes.traces.title',
    audience: SIGNED_IN,
    menu: { label: 'routes.traces.menu', companyLabel: 'routes.traces.menuCompany', icon: 'traces', resource: 'traces' },
  },
  myTraces: {
    path: '/my-traces',
    title: 'routes.myTraces.title',
    audience: SIGNED_IN,
  },
  trace: {
    path: '/traces/:traceId',
    title: 'routes.trace.title',
    audience: SIGNED_IN,
  },
  monitors: {
    path: '/monitors',
    title: 'routes.monitors.title',
    audience: SIGNED_IN,
    menu: { label: 'routes.monitors.menu', companyLabel: 'routes.monitors.menuCompany', icon: 'monitors', resource: 'monitors' },
  },
  myMonitors: {
    path: '/my-monitors',
    title: 'routes.myMonitors.title',
    audience: SIGNED_IN,
  },
  // Before any '/monitors/:id': a fixed segment must win over a parameter (routes match in table order).
  incidents: {
    path: '/monitors/incidents',
    title: 'routes.incidents.title',
    audience: SIGNED_IN,
  },
  incident: {
    path: '/monitors/incidents/:id',
    title: 'routes.incident.title',
    audience: SIGNED_IN,
  },
  maintenanceWindows: {
    path: '/monitors/maintenance',
    title: 'routes.maintenanceWindows.title',
    audience: SIGNED_IN,
  },
  statusPageSettings: {
    path: '/monitors/status-page',
    title: 'routes.statusPageSettings.title',
    audience: SIGNED_IN,
    menu: { label: 'routes.statusPageSettings.menu', icon: 'status', resource: 'monitors' },
  },
  // After the fixed /monitors/incidents, /monitors/maintenance and /monitors/status-page, which must win over ':id'.
  monitor: {
    path: '/monitors/:id',
    title: 'routes.monitor.title',
    audience: SIGNED_IN,
  },
  apiIntelligence: {
    path: '/api-intelligence',
    title: 'routes.apiIntelligence.title',
    audience: SIGNED_IN,
    menu: { label: 'routes.apiIntelligence.menu', icon: 'api', resource: 'api_intelligence', flag: 'ENABLE_API_INTELLIGENCE' },
  },
  security: {
    path: '/security',
    title: 'routes.security.title',
    audience: SIGNED_IN,
    // The spec's entry (resource threat_intelligence, flag ENABLE_THREAT_INTELLIGENCE); the screen
    // shows each analysis while its own flag is on.
    menu: { label: 'routes.security.menu', icon: 'security', resource: 'threat_intelligence', flag: 'ENABLE_THREAT_INTELLIGENCE' },
  },
  // Reached from the security overview and from DNS warnings (the spec's menu has no entry of its own).
  domainChecks: {
    path: '/domain-checks',
    title: 'routes.domainChecks.title',
    audience: SIGNED_IN,
  },
  // Not in the menu: the spec's navigation names /security only; its screen and the ssl_warning
  // notifications lead here.
  sslMonitoring: {
    path: '/ssl-monitoring',
    title: 'routes.sslMonitoring.title',
    audience: SIGNED_IN,
  },
  sslTarget: {
    path: '/ssl-monitoring/:id',
    title: 'routes.sslTarget.title',
    audience: SIGNED_IN,
  },
  vulnerabilityScans: {
    path: '/vulnerability-scans',
    title: 'routes.vulnerabilityScans.title',
    // No menu entry of its own: the spec's menu has Security (/security), which leads here.
    audience: SIGNED_IN,
  },
  threatIntelligence: {
    path: '/threat-intelligence',
    title: 'routes.threatIntelligence.title',
    audience: SIGNED_IN,
  },
  reports: {
    path: '/reports',
    title: 'routes.reports.title',
    audience: SIGNED_IN,
    menu: { label: 'routes.reports.menu', icon: 'reports', resource: 'reports', flag: 'ENABLE_REPORTS' },
  },
  adminUsers: {
    path: '/admin/users',
    title: 'routes.adminUsers.title',
    audience: SUPER_ADMIN,
    menu: { label: 'routes.adminUsers.menu', icon: 'users', resource: 'users', flag: 'ENABLE_USER_MGMT' },
  },
  team: {
    path: '/team',
    title: 'routes.team.title',
    audience: SIGNED_IN,
    menu: { label: 'routes.team.menu', icon: 'team', resource: 'users', flag: 'ENABLE_USER_MGMT' },
  },
  // On-call (issue 30): a company's schedules; the schedules API has no tenant selector, so super admins have none.
  onCall: {
    path: '/on-call',
    title: 'routes.onCall.title',
    audience: COMPANY,
    menu: { label: 'routes.onCall.menu', icon: 'oncall' },
  },
  // Before '/on-call/:id': the fixed segment must win over the parameter.
  onCallNew: {
    path: '/on-call/new',
    title: 'routes.onCallNew.title',
    audience: ['customer_admin'],
  },
  onCallSchedule: {
    path: '/on-call/:id',
    title: 'routes.onCallSchedule.title',
    audience: COMPANY,
  },
  adminTenants: {
    path: '/admin/tenants',
    title: 'routes.adminTenants.title',
    audience: SUPER_ADMIN,
    menu: { label: 'routes.adminTenants.menu', icon: 'tenants', resource: 'tenants' },
  },
  settings: {
    path: '/settings',
    title: 'routes.settings.title',
    audience: SIGNED_IN,
    menu: { label: 'routes.settings.menu', icon: 'settings', resource: 'settings' },
  },
  companySettings: {
    path: '/settings/company',
    title: 'routes.companySettings.title',
    audience: SETTINGS,
  },
  platformSettings: {
    path: '/settings/platform',
    title: 'routes.platformSettings.title',
    audience: SUPER_ADMIN,
  },
  auditLog: {
    path: '/settings/audit',
    title: 'routes.auditLog.title',
    audience: SUPER_ADMIN,
  },
  account: {
    path: '/settings/account',
    title: 'routes.account.title',
    audience: SIGNED_IN,
  },
  alertChannels: {
    path: '/settings/alerts',
    title: 'routes.alertChannels.title',
    audience: SETTINGS,
  },
  subscribers: {
    path: '/settings/subscribers',
    title: 'routes.subscribers.title',
    audience: SETTINGS,
  },
  escalation: {
    path: '/settings/escalation',
    title: 'routes.escalation.title',
    audience: SETTINGS,
  },
  probeLocations: {
    path: '/settings/probe-locations',
    title: 'routes.probeLocations.title',
    audience: SETTINGS,
  },
  secrets: {
    path: '/settings/secrets',
    title: 'routes.secrets.title',
    // viewers see the names (which monitors use which secret), never a value
    audience: SIGNED_IN,
  },
  backendTest: {
    path: '/backend-test',
    title: 'routes.backendTest.title',
    audience: SUPER_ADMIN,
  },
  incidentTemplates: {
    path: '/settings/incident-templates',
    title: 'routes.incidentTemplates.title',
    // every member reads them (they fill the forms); admins change them
    audience: SIGNED_IN,
  },
  sso: {
    path: '/settings/sso',
    title: 'routes.sso.title',
    audience: SETTINGS,
  },
  anomalies: {
    path: '/settings/anomalies',
    title: 'anomalies.route.title',
    // every member reads the sensitivity and the recent anomalies; admins change it
    audience: SIGNED_IN,
  },
  // Company admins only: an import goes into one company, through its admin's own rights.
  imports: {
    path: '/settings/import',
    title: 'imports.route.title',
    audience: ['customer_admin'],
    menu: { label: 'imports.route.menu', icon: 'import', resource: 'settings' },
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
