// The console's English catalogue, by namespace (one JSON file per screen area). A new
// namespace: en/<ns>.json and de/<ns>.json, one import and one entry in en.ts and de.ts.
import shell from './en/shell.json' with { type: 'json' };
import account from './en/account.json' with { type: 'json' };
import routes from './en/routes.json' with { type: 'json' };
import layout from './en/layout.json' with { type: 'json' };
import app from './en/app.json' with { type: 'json' };
import ui from './en/ui.json' with { type: 'json' };
import errors from './en/errors.json' with { type: 'json' };
import placeholders from './en/placeholders.json' with { type: 'json' };
import auth from './en/auth.json' with { type: 'json' };
import dashboard from './en/dashboard.json' with { type: 'json' };
import incidents from './en/incidents.json' with { type: 'json' };

export const CONSOLE_EN = {
  shell,
  account,
  routes,
  layout,
  app,
  ui,
  errors,
  placeholders,
  auth,
  dashboard,
  incidents,
};
