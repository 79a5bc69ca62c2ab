// The console's German catalogue, by namespace; loaded by the console only when German is shown.
import shell from './de/shell.json' with { type: 'json' };
import account from './de/account.json' with { type: 'json' };
import routes from './de/routes.json' with { type: 'json' };
import layout from './de/layout.json' with { type: 'json' };
import app from './de/app.json' with { type: 'json' };
import ui from './de/ui.json' with { type: 'json' };
import errors from './de/errors.json' with { type: 'json' };
import placeholders from './de/placeholders.json' with { type: 'json' };
import auth from './de/auth.json' with { type: 'json' };
import dashboard from './de/dashboard.json' with { type: 'json' };
import incidents from './de/incidents.json' with { type: 'json' };
import type { CONSOLE_EN } from './en.ts';

export const CONSOLE_DE: { [N in keyof typeof CONSOLE_EN]: Record<string, string> } = {
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
