// Each console route's component, loaded on first use. Imported by the app alone: the route
// table (routes.ts) holds no component, so the modules the screens use (api.ts, access.ts,
// stores) never lead back to the screens.
import type { ComponentType } from 'react';
import type { RouteName } from './routes.ts';
import type { ScreenProps } from './ui/screen-props.ts';

/** Routes whose screen is not built yet show 'Coming Soon' with their title. */
const comingSoon = () => import('./features/placeholders/ComingSoon.tsx').then((m) => m.ComingSoon);
/** The monitor list answers at the menu's /monitors and at the spec's /my-monitors alike. */
const monitorsList = () => import('./features/monitors/MonitorsPage.tsx').then((m) => m.MonitorsPage);
/** Metrics and trace search answer at the menu's paths and at the spec's /my-… alike. */
const metricsPage = () => import('./features/metrics/MetricsPage.tsx').then((m) => m.MetricsPage);
const tracesPage = () => import('./features/traces/TracesPage.tsx').then((m) => m.TracesPage);

export const SCREENS: Record<RouteName, () => Promise<ComponentType<ScreenProps>>> = {
  login: () => import('./features/auth/LoginPage.tsx').then((m) => m.LoginPage),
  signup: () => import('./features/auth/SignupPage.tsx').then((m) => m.SignupPage),
  companyLogin: () => import('./features/auth/LoginPage.tsx').then((m) => m.LoginPage),
  forgotPassword: () => import('./features/auth/PasswordPages.tsx').then((m) => m.ForgotPasswordPage),
  resetPassword: () => import('./features/auth/PasswordPages.tsx').then((m) => m.ResetPasswordPage),
  invite: () => import('./features/auth/InvitePage.tsx').then((m) => m.InvitePage),
  notFound: () => import('./features/errors/Screens.tsx').then((m) => m.NotFoundPage),
  maintenance: () => import('./features/errors/Screens.tsx').then((m) => m.Maintenance),
  notifications: () => import('./features/notifications/NotificationsPage.tsx').then((m) => m.NotificationsPage),
  alertDeliveries: () => import('./features/alerts/DeliveriesPage.tsx').then((m) => m.DeliveriesPage),
  dashboard: () => import('./features/dashboard/DashboardPage.tsx').then((m) => m.DashboardPage),
  metrics: metricsPage,
  myMetrics: metricsPage,
  traces: tracesPage,
  myTraces: tracesPage,
  trace: () => import('./features/trace/TracePage.tsx').then((m) => m.TracePage),
  monitors: monitorsList,
  myMonitors: monitorsList,
  incidents: () => import('./features/incidents/IncidentsPage.tsx').then((m) => m.IncidentsPage),
  incident: () => import('./features/incidents/IncidentPage.tsx').then((m) => m.IncidentPage),
  maintenanceWindows: () => import('./features/maintenance/MaintenancePage.tsx').then((m) => m.MaintenancePage),
  statusPageSettings: () => import('./features/status-page/StatusPageSettingsPage.tsx').then((m) => m.StatusPageSettingsPage),
  monitor: () => import('./features/monitors/MonitorPage.tsx').then((m) => m.MonitorPage),
  apiIntelligence: () => import('./features/api-intelligence/ApiIntelligencePage.tsx').then((m) => m.ApiIntelligencePage),
  security: () => import('./features/security/SecurityPage.tsx').then((m) => m.SecurityPage),
  domainChecks: () => import('./features/domain-checks/DomainChecksPage.tsx').then((m) => m.DomainChecksPage),
  sslMonitoring: () => import('./features/ssl/SslMonitoringPage.tsx').then((m) => m.SslMonitoringPage),
  sslTarget: () => import('./features/ssl/SslTargetPage.tsx').then((m) => m.SslTargetPage),
  vulnerabilityScans: () => import('./features/vulnerability-scans/VulnerabilityScansPage.tsx').then((m) => m.VulnerabilityScansPage),
  threatIntelligence: () => import('./features/threat-intelligence/ThreatIntelligencePage.tsx').then((m) => m.ThreatIntelligencePage),
  reports: () => import('./features/reports/ReportsPage.tsx').then((m) => m.ReportsPage),
  adminUsers: () => import('./features/users/UsersPage.tsx').then((m) => m.UsersPage),
  team: () => import('./features/team/TeamPage.tsx').then((m) => m.TeamPage),
  onCall: () => import('./features/on-call/OnCallPage.tsx').then((m) => m.OnCallPage),
  onCallNew: () => import('./features/on-call/NewSchedulePage.tsx').then((m) => m.NewSchedulePage),
  onCallSchedule: () => import('./features/on-call/SchedulePage.tsx').then((m) => m.SchedulePage),
  adminTenants: () => import('./features/tenants/TenantsPage.tsx').then((m) => m.TenantsPage),
  settings: () => import('./features/alerts/SettingsPage.tsx').then((m) => m.SettingsPage),
  companySettings: () => import('./features/settings/CompanySettingsPage.tsx').then((m) => m.CompanySettingsPage),
  platformSettings: () => import('./features/settings/PlatformSettingsPage.tsx').then((m) => m.PlatformSettingsPage),
  auditLog: () => import('./features/settings/AuditLogPage.tsx').then((m) => m.AuditLogPage),
  account: () => import('./features/account/AccountPage.tsx').then((m) => m.AccountPage),
  alertChannels: () => import('./features/alerts/ChannelsPage.tsx').then((m) => m.ChannelsPage),
  subscribers: () => import('./features/subscribers/SubscribersPage.tsx').then((m) => m.SubscribersPage),
  escalation: () => import('./features/escalation/EscalationPage.tsx').then((m) => m.EscalationPage),
  probeLocations: () => import('./features/probe-locations/ProbeLocationsPage.tsx').then((m) => m.ProbeLocationsPage),
  secrets: () => import('./features/secrets/SecretsPage.tsx').then((m) => m.SecretsPage),
  backendTest: () => import('./features/backend-test/BackendTestPage.tsx').then((m) => m.BackendTestPage),
  incidentTemplates: () => import('./features/incident-templates/TemplatesPage.tsx').then((m) => m.TemplatesPage),
  sso: () => import('./features/sso/SsoPage.tsx').then((m) => m.SsoPage),
  anomalies: () => import('./features/anomalies/AnomaliesPage.tsx').then((m) => m.AnomaliesPage),
  imports: () => import('./features/imports/ImportPage.tsx').then((m) => m.ImportPage),
};
