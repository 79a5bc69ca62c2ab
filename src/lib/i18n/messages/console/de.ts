// The console's German catalogue, by namespace; loaded by the console only when German is shown.
import shell from './de/shell.json' with { type: 'json' };
import account from './de/account.json' with { type: 'json' };
import alerts from './de/alerts.json' with { type: 'json' };
import anomalies from './de/anomalies.json' with { type: 'json' };
import apiIntelligence from './de/apiIntelligence.json' with { type: 'json' };
import app from './de/app.json' with { type: 'json' };
import auth from './de/auth.json' with { type: 'json' };
import backendTest from './de/backendTest.json' with { type: 'json' };
import channelForms from './de/channelForms.json' with { type: 'json' };
import chatSubscribers from './de/chatSubscribers.json' with { type: 'json' };
import companyTexts from './de/companyTexts.json' with { type: 'json' };
import dashboard from './de/dashboard.json' with { type: 'json' };
import domainChecks from './de/domainChecks.json' with { type: 'json' };
import embed from './de/embed.json' with { type: 'json' };
import errors from './de/errors.json' with { type: 'json' };
import escalation from './de/escalation.json' with { type: 'json' };
import evidence from './de/evidence.json' with { type: 'json' };
import imports from './de/imports.json' with { type: 'json' };
import incidentSummary from './de/incidentSummary.json' with { type: 'json' };
import incidentTemplates from './de/incidentTemplates.json' with { type: 'json' };
import incidents from './de/incidents.json' with { type: 'json' };
import kindForms from './de/kindForms.json' with { type: 'json' };
import labels from './de/labels.json' with { type: 'json' };
import layout from './de/layout.json' with { type: 'json' };
import maintenance from './de/maintenance.json' with { type: 'json' };
import metrics from './de/metrics.json' with { type: 'json' };
import monitors from './de/monitors.json' with { type: 'json' };
import notifications from './de/notifications.json' with { type: 'json' };
import onCall from './de/onCall.json' with { type: 'json' };
import pagePanels from './de/pagePanels.json' with { type: 'json' };
import placeholders from './de/placeholders.json' with { type: 'json' };
import probeLocations from './de/probeLocations.json' with { type: 'json' };
import reports from './de/reports.json' with { type: 'json' };
import routes from './de/routes.json' with { type: 'json' };
import secrets from './de/secrets.json' with { type: 'json' };
import security from './de/security.json' with { type: 'json' };
import settings from './de/settings.json' with { type: 'json' };
import ssl from './de/ssl.json' with { type: 'json' };
import sso from './de/sso.json' with { type: 'json' };
import statusPage from './de/statusPage.json' with { type: 'json' };
import statusPageLanguages from './de/statusPageLanguages.json' with { type: 'json' };
import subscribers from './de/subscribers.json' with { type: 'json' };
import team from './de/team.json' with { type: 'json' };
import tenants from './de/tenants.json' with { type: 'json' };
import threatIntelligence from './de/threatIntelligence.json' with { type: 'json' };
import trace from './de/trace.json' with { type: 'json' };
import traces from './de/traces.json' with { type: 'json' };
import ui from './de/ui.json' with { type: 'json' };
import users from './de/users.json' with { type: 'json' };
import vulnerabilityScans from './de/vulnerabilityScans.json' with { type: 'json' };
import type { CONSOLE_EN } from './en.ts';

export const CONSOLE_DE: { [N in keyof typeof CONSOLE_EN]: Record<string, string> } = {
  shell,
  account,
  alerts,
  anomalies,
  apiIntelligence,
  app,
  auth,
  backendTest,
  channelForms,
  chatSubscribers,
  companyTexts,
  dashboard,
  domainChecks,
  embed,
  errors,
  escalation,
  evidence,
  imports,
  incidentSummary,
  incidentTemplates,
  incidents,
  kindForms,
  labels,
  layout,
  maintenance,
  metrics,
  monitors,
  notifications,
  onCall,
  pagePanels,
  placeholders,
  probeLocations,
  reports,
  routes,
  secrets,
  security,
  settings,
  ssl,
  sso,
  statusPage,
  statusPageLanguages,
  subscribers,
  team,
  tenants,
  threatIntelligence,
  trace,
  traces,
  ui,
  users,
  vulnerabilityScans,
};
