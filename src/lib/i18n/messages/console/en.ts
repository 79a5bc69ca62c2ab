// The console's English catalogue, by namespace (one JSON file per screen area). A new
// namespace: en/<ns>.json and de/<ns>.json, one import and one entry in en.ts and de.ts.
import shell from './en/shell.json' with { type: 'json' };
import account from './en/account.json' with { type: 'json' };
import alerts from './en/alerts.json' with { type: 'json' };
import app from './en/app.json' with { type: 'json' };
import auth from './en/auth.json' with { type: 'json' };
import channelForms from './en/channelForms.json' with { type: 'json' };
import chatSubscribers from './en/chatSubscribers.json' with { type: 'json' };
import companyTexts from './en/companyTexts.json' with { type: 'json' };
import dashboard from './en/dashboard.json' with { type: 'json' };
import embed from './en/embed.json' with { type: 'json' };
import errors from './en/errors.json' with { type: 'json' };
import escalation from './en/escalation.json' with { type: 'json' };
import incidentTemplates from './en/incidentTemplates.json' with { type: 'json' };
import incidents from './en/incidents.json' with { type: 'json' };
import kindForms from './en/kindForms.json' with { type: 'json' };
import layout from './en/layout.json' with { type: 'json' };
import monitors from './en/monitors.json' with { type: 'json' };
import pagePanels from './en/pagePanels.json' with { type: 'json' };
import placeholders from './en/placeholders.json' with { type: 'json' };
import probeLocations from './en/probeLocations.json' with { type: 'json' };
import routes from './en/routes.json' with { type: 'json' };
import sso from './en/sso.json' with { type: 'json' };
import statusPage from './en/statusPage.json' with { type: 'json' };
import statusPageLanguages from './en/statusPageLanguages.json' with { type: 'json' };
import subscribers from './en/subscribers.json' with { type: 'json' };
import ui from './en/ui.json' with { type: 'json' };
import maintenance from './en/maintenance.json' with { type: 'json' };
import notifications from './en/notifications.json' with { type: 'json' };
import reports from './en/reports.json' with { type: 'json' };

export const CONSOLE_EN = {
  shell,
  account,
  alerts,
  app,
  auth,
  channelForms,
  chatSubscribers,
  companyTexts,
  dashboard,
  embed,
  errors,
  escalation,
  incidentTemplates,
  incidents,
  kindForms,
  layout,
  monitors,
  pagePanels,
  placeholders,
  probeLocations,
  routes,
  sso,
  statusPage,
  statusPageLanguages,
  subscribers,
  ui,
  maintenance,
  notifications,
  reports,
};
