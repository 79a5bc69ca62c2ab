// What the Astro page tells the app at start: where it runs and who is signed in (if the server
// already knows). Everything else comes from the API.
import type { components } from '../../api/schema.d.ts';
import type { HostKind, PageCompany } from '../../lib/page-services.ts';
import type { ConsoleLocale } from '../../lib/i18n/locales.ts';
import { DEFAULT_UI_SETTINGS, type UiSettings } from '../../lib/ui-settings.ts';

export type CurrentUser = components['schemas']['CurrentUser'];

/** The company of a subdomain as the page hands it over (the horizontal logo stays on the server). */
export type BootCompany = Omit<PageCompany, 'horizontalLogoBase64'>;

export type BootHost = Exclude<HostKind, { kind: 'tenant' }> | { kind: 'tenant'; subdomain: string; company: BootCompany };

export interface Boot {
  productName: string;
  productDomain: string;
  host: BootHost;
  user: CurrentUser | null;
  /** The signed-in user's console look (the defaults when nobody is signed in) */
  ui: UiSettings;
  /** The console's language: the user's choice, else the best match of their browser's languages */
  locale: ConsoleLocale;
  /** The best match of the browser's languages: what 'As my browser says' (a null language) means */
  browserLocale: ConsoleLocale;
}

let current: Boot = {
  productName: 'StatusWatch',
  productDomain: 'localhost',
  host: { kind: 'root' },
  user: null,
  ui: DEFAULT_UI_SETTINGS,
  locale: 'en',
  browserLocale: 'en',
};

export function setBoot(b: Boot): void {
  current = b;
}

export function boot(): Boot {
  return current;
}

export function onTenantHost(): boolean {
  const k = current.host.kind;
  return k === 'tenant' || k === 'unknown_tenant';
}
