// The console's English catalogue, by namespace (one JSON file per screen area). A new
// namespace: en/<ns>.json and de/<ns>.json, one import and one entry in en.ts and de.ts.
import shell from './en/shell.json' with { type: 'json' };
import account from './en/account.json' with { type: 'json' };
import alerts from './en/alerts.json' with { type: 'json' };
import anomalies from './en/anomalies.json' with { type: 'json' };
import apiIntelligence from './en/apiIntelligence.json' with { type: 'json' };
import app from './en/app.json' with { type: 'json' };
import auth from './en/auth.json' with { type: 'json' };
import backendTest from './en/backendTest.json' with { type: 'json' };
import channelForms from './en/channelForms.json' with { type: 'json' };
import chatSubscribers from './en/chatSubscribers.json' with { type: 'json' };
import companyTexts from './en/companyTexts.json' with { type: 'json' };
import dashboard from './en/dashboard.json' with { type: 'json' };
import domainChecks from './en/domainChecks.json' with { type: 'json' };
import embed from './en/embed.json' with { type: 'json' };
import errors from './en/errors.json' with { type: 'json' };
import escalation from './en/escalation.json' with { type: 'json' };
import evidence from './en/evidence.json' with { type: 'json' };
import imports from './en/imports.json' with { type: 'json' };
import incidentSummary from './en/incidentSummary.json' with { type: 'json' };
import incidentTemplates from './en/incidentTemplates.json' with { type: 'json' };
import incidents from './en/incidents.json' with { type: 'json' };
import kindForms from './en/kindForms.json' with { type: 'json' };
import labels from './en/labels.json' with { type: 'json' };
import layout from './en/layout.json' with { type: 'json' };
import maintenance from './en/maintenance.json' with { type: 'json' };
import metrics from './en/metrics.json' with { type: 'json' };
import monitors from './en/monitors.json' with { type: 'json' };
import notifications from './en/notifications.json' with { type: 'json' };
import onCall from './en/onCall.json' with { type: 'json' };
import pagePanels from './en/pagePanels.json' with { type: 'json' };
import placeholders from './en/placeholders.json' with { type: 'json' };
import probeLocations from './en/probeLocations.json' with { type: 'json' };
import reports from './en/reports.json' with { type: 'json' };
import routes from './en/routes.json' with { type: 'json' };
import secrets from './en/secrets.json' with { type: 'json' };
import security from './en/security.json' with { type: 'json' };
import settings from './en/settings.json' with { type: 'json' };
import ssl from './en/ssl.json' with { type: 'json' };
import sso from './en/sso.json' with { type: 'json' };
import statusPage from './en/statusPage.json' with { type: 'json' };
import statusPageLanguages from './en/statusPageLanguages.json' with { type: 'json' };
import subscribers from './en/subscribers.json' with { type: 'json' };
import team from './en/team.json' with { type: 'json' };
import tenants from './en/tenants.json' with { type: 'json' };
import threatIntelligence from './en/threatIntelligence.json' with { type: 'json' };
import trace from './en/trace.json' with { type: 'json' };
import traces from './en/traces.json' with { type: 'json' };
import ui from './en/ui.json' with { type: 'json' };
import users from './en/users.json' with { type: 'json' };
import vulnerabilityScans from './en/vulnerabilityScans.json' with { type: 'json' };

export const CONSOLE_EN = {
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
