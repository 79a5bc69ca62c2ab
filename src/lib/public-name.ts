// The name a monitor goes by on every public surface (status page, its JSON, feeds, badges, the
// branded login list). Monitor names are written for the team and often name a host
// ('127.0.0.1 200', 'db-01.corp'): an internal host must never reach the public, so a monitor
// without a public name shows its own name only when that names no host, else 'Service N' (its
// place on the page). Pure; shared by the server and the console (which warns before saving).

export const PUBLIC_NAME_MAX = 100;
export const GROUP_NAME_MAX = 100;

const IPV4 = /(^|[^\d.])\d{1,3}(\.\d{1,3}){3}($|[^\d.])/;
// two or more colon-separated hex groups ('::1', 'fe80::1', '2001:db8::5')
const IPV6 = /(^|[^\w:])[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,}($|[^\w:])/i;
const URL_SCHEME = /\b[a-z][a-z0-9+.-]*:\/\//i;
const LOCALHOST = /\blocalhost\b/i;
// a dotted name whose last label is a word of letters: 'api.acme.internal', 'pay-01.corp'
const DOTTED = /\b[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z][a-z-]*[a-z]\b/i;

/** Whether `name` shows a host: an address, a URL, a dotted host name, or the monitor's own target. */
export function looksLikeHost(name: string, target: string | null): boolean {
  if (IPV4.test(name) || IPV6.test(name) || URL_SCHEME.test(name) || LOCALHOST.test(name) || DOTTED.test(name)) return true;
  return target !== null && target.length >= 3 && name.toLowerCase().includes(target.toLowerCase());
}

/** What visitors read for a monitor placed `position`th (1-based) on its company's page. */
export function publicNameOf(m: { name: string; publicName: string | null; target: string | null }, position: number): string {
  const chosen = m.publicName?.trim();
  if (chosen) return chosen;
  return looksLikeHost(m.name, m.target) ? `Service ${position}` : m.name;
}
