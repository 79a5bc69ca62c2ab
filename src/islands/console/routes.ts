// The console's screens (spec section 2), each declared once: path, title, who may open it, its
// menu entry; its component, loaded on first use, is in screens.ts, which the app alone imports
// (so no screen's store, through api.ts and access.ts, leads back here). The router (router.ts), the access rules
// (access.ts), the menus (layout/menu.ts), the header and document titles (App.tsx) and the Astro
// page (src/pages/[...path].astro) are all derived from this table.
import type { Resource, Role } from '../../lib/permissions.ts';

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
}

const SUPER_ADMIN = ['super_admin'] as const;
const COMPANY = ['customer_admin', 'customer_viewer'] as const;
const SIGNED_IN = [...SUPER_ADMIN, ...COMPANY] as const;
/** Those who hold the `settings` resource: viewers never see alert channels or receipts. */
const SETTINGS = ['super_admin', 'customer_admin'] as const;

export const ROUTES = {
  login: {
    path: '/login',
    title: 'Sign in',
    audience: 'anyone',
  },
  signup: {
    path: '/signup',
    title: 'Sign up',
    audience: 'anyone',
  },
  companyLogin: {
    path: '/company-login',
    title: 'Sign in',
    audience: 'public',
  },
  forgotPassword: {
    path: '/forgotpassword',
    title: 'Forgot password',
    audience: 'anyone',
  },
  resetPassword: {
    path: '/reset-password',
    title: 'Reset password',
    audience: 'anyone',
  },
  invite: {
    path: '/invite',
    title: 'Accept invitation',
    audience: 'anyone',
  },
  notFound: {
    path: '/notfound',
    title: 'Page Not Found',
    audience: 'anyone',
  },
  maintenance: {
    path: '/maintenance',
    title: 'Maintenance',
    audience: 'anyone',
  },
  notifications: {
    path: '/notifications',
    title: 'Notifications',
    audience: 'public',
    shellWhenSignedIn: true,
  },
  alertDeliveries: {
    path: '/notifications/deliveries',
    title: 'Alert deliveries',
    audience: SETTINGS,
  },
  dashboard: {
    path: '/dashboard',
    title: 'Dashboard',
    audience: SIGNED_IN,
    menu: { label: 'Dashboard', icon: 'dashboard' },
  },
  metrics: {
    path: '/metrics',
    title: 'Metrics',
    audience: SIGNED_IN,
    menu: { label: 'Global Metrics', companyLabel: 'My Metrics', icon: 'metrics', resource: 'metrics' },
  },
  myMetrics: {
    path: '/my-metrics',
    title: 'Metrics',
    audience: SIGNED_IN,
  },
  traces: {
    path: '/traces',
    title: 'Traces',
    audience: SIGNED_IN,
    menu: { label: 'All Traces', companyLabel: 'My Traces', icon: 'traces', resource: 'traces' },
  },
  myTraces: {
    path: '/my-traces',
    title: 'Traces',
    audience: SIGNED_IN,
  },
  trace: {
    path: '/traces/:traceId',
    title: 'Trace',
    audience: SIGNED_IN,
  },
  monitors: {
    path: '/monitors',
    title: 'Monitors',
    audience: SIGNED_IN,
    menu: { label: 'Monitors', companyLabel: 'My Monitors', icon: 'monitors', resource: 'monitors' },
  },
  myMonitors: {
    path: '/my-monitors',
    title: 'Monitors',
    audience: SIGNED_IN,
  },
  // Before any '/monitors/:id': a fixed segment must win over a parameter (routes match in table order).
  incidents: {
    path: '/monitors/incidents',
    title: 'Incidents',
    audience: SIGNED_IN,
  },
  incident: {
    path: '/monitors/incidents/:id',
    title: 'Incident',
    audience: SIGNED_IN,
  },
  maintenanceWindows: {
    path: '/monitors/maintenance',
    title: 'Maintenance',
    audience: SIGNED_IN,
  },
  statusPageSettings: {
    path: '/monitors/status-page',
    title: 'Status Page',
    audience: SIGNED_IN,
    menu: { label: 'Status Page', icon: 'status', resource: 'monitors' },
  },
  // After the fixed /monitors/incidents, /monitors/maintenance and /monitors/status-page, which must win over ':id'.
  monitor: {
    path: '/monitors/:id',
    title: 'Monitor',
    audience: SIGNED_IN,
  },
  apiIntelligence: {
    path: '/api-intelligence',
    title: 'API Intelligence',
    audience: SIGNED_IN,
    menu: { label: 'API Intelligence', icon: 'api', resource: 'api_intelligence', flag: 'ENABLE_API_INTELLIGENCE' },
  },
  security: {
    path: '/security',
    title: 'Security',
    audience: SIGNED_IN,
    // The spec's entry (resource threat_intelligence, flag ENABLE_THREAT_INTELLIGENCE); the screen
    // shows each analysis while its own flag is on.
    menu: { label: 'Security', icon: 'security', resource: 'threat_intelligence', flag: 'ENABLE_THREAT_INTELLIGENCE' },
  },
  // Reached from the security overview and from DNS warnings (the spec's menu has no entry of its own).
  domainChecks: {
    path: '/domain-checks',
    title: 'Domains and DNS',
    audience: SIGNED_IN,
  },
  // Not in the menu: the spec's navigation names /security only; its screen and the ssl_warning
  // notifications lead here.
  sslMonitoring: {
    path: '/ssl-monitoring',
    title: 'SSL/TLS monitoring',
    audience: SIGNED_IN,
  },
  sslTarget: {
    path: '/ssl-monitoring/:id',
    title: 'Certificate',
    audience: SIGNED_IN,
  },
  vulnerabilityScans: {
    path: '/vulnerability-scans',
    title: 'Vulnerability Scans',
    // No menu entry of its own: the spec's menu has Security (/security), which leads here.
    audience: SIGNED_IN,
  },
  threatIntelligence: {
    path: '/threat-intelligence',
    title: 'Threat Intelligence',
    audience: SIGNED_IN,
  },
  reports: {
    path: '/reports',
    title: 'Reports',
    audience: SIGNED_IN,
    menu: { label: 'Reports', icon: 'reports', resource: 'reports', flag: 'ENABLE_REPORTS' },
  },
  adminUsers: {
    path: '/admin/users',
    title: 'Users Management',
    audience: SUPER_ADMIN,
    menu: { label: 'Users', icon: 'users', resource: 'users', flag: 'ENABLE_USER_MGMT' },
  },
  team: {
    path: '/team',
    title: 'Team',
    audience: SIGNED_IN,
    menu: { label: 'Team', icon: 'team', resource: 'users', flag: 'ENABLE_USER_MGMT' },
  },
  // On-call (issue 30): a company's schedules; the schedules API has no tenant selector, so super admins have none.
  onCall: {
    path: '/on-call',
    title: 'On-call',
    audience: COMPANY,
    menu: { label: 'On-call', icon: 'oncall' },
  },
  // Before '/on-call/:id': the fixed segment must win over the parameter.
  onCallNew: {
    path: '/on-call/new',
    title: 'New schedule',
    audience: ['customer_admin'],
  },
  onCallSchedule: {
    path: '/on-call/:id',
    title: 'Schedule',
    audience: COMPANY,
  },
  adminTenants: {
    path: '/admin/tenants',
    title: 'Tenants Management',
    audience: SUPER_ADMIN,
    menu: { label: 'Tenants', icon: 'tenants', resource: 'tenants' },
  },
  settings: {
    path: '/settings',
    title: 'Settings',
    audience: SIGNED_IN,
    menu: { label: 'Settings', icon: 'settings', resource: 'settings' },
  },
  companySettings: {
    path: '/settings/company',
    title: 'Company settings',
    audience: SETTINGS,
  },
  platformSettings: {
    path: '/settings/platform',
    title: 'Platform settings',
    audience: SUPER_ADMIN,
  },
  auditLog: {
    path: '/settings/audit',
    title: 'Audit log',
    audience: SUPER_ADMIN,
  },
  account: {
    path: '/settings/account',
    title: 'Account',
    audience: SIGNED_IN,
  },
  alertChannels: {
    path: '/settings/alerts',
    title: 'Alerts',
    audience: SETTINGS,
  },
  subscribers: {
    path: '/settings/subscribers',
    title: 'Status page subscribers',
    audience: SETTINGS,
  },
  escalation: {
    path: '/settings/escalation',
    title: 'Escalation policy',
    audience: SETTINGS,
  },
  probeLocations: {
    path: '/settings/probe-locations',
    title: 'Probe locations',
    audience: SETTINGS,
  },
  secrets: {
    path: '/settings/secrets',
    title: 'Secrets',
    // viewers see the names (which monitors use which secret), never a value
    audience: SIGNED_IN,
  },
  backendTest: {
    path: '/backend-test',
    title: 'Backend Test',
    audience: SUPER_ADMIN,
  },
  incidentTemplates: {
    path: '/settings/incident-templates',
    title: 'Incident templates',
    // every member reads them (they fill the forms); admins change them
    audience: SIGNED_IN,
  },
  sso: {
    path: '/settings/sso',
    title: 'Single sign-on',
    audience: SETTINGS,
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
