// What the Astro page tells the app at start: where it runs and who is signed in (if the server
// already knows). Everything else comes from the API.
import type { components } from '../../api/schema.d.ts';

export type CurrentUser = components['schemas']['CurrentUser'];

export interface BootCompany {
  id: string;
  name: string;
  subdomain: string;
  primaryColor: string;
  secondaryColor: string;
  logoBase64: string | null;
}

export type BootHost =
  | { kind: 'root' }
  | { kind: 'tenant'; subdomain: string; company: BootCompany }
  | { kind: 'unknown_tenant'; subdomain: string }
  | { kind: 'invalid' };

export interface Boot {
  productName: string;
  productDomain: string;
  host: BootHost;
  user: CurrentUser | null;
}

let current: Boot = { productName: 'StatusWatch', productDomain: 'localhost', host: { kind: 'root' }, user: null };

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
