// Host rules of section 1 of the spec, pure: which Host is the main site, which is a company's
// subdomain, and how to build links to either. Shared by the server and the console.

/** Lower-cased host name without the port (IPv6 brackets kept). */
export function hostName(hostHeader: string): string {
  const raw = hostHeader.trim().toLowerCase();
  if (raw.startsWith('[')) return raw.slice(0, raw.indexOf(']') + 1);
  return raw.replace(/:\d*$/, '').replace(/\.$/, '');
}

/** The ':port' part of a Host header, or '' when there is none. */
export function hostPort(hostHeader: string): string {
  const raw = hostHeader.trim();
  const m = raw.startsWith('[') ? /\](:\d+)$/.exec(raw) : /(:\d+)$/.exec(raw);
  return m ? m[1] : '';
}

/** ':port' of a link on this port, or '' when it is the scheme's default (80 for http, 443 for https). */
export function portSuffix(scheme: string, port: number): string {
  return port === (scheme === 'https' ? 443 : 80) ? '' : `:${port}`;
}

const IPV4_RE = /^\d{1,3}(\.\d{1,3}){3}$/;

export function isIpHost(host: string): boolean {
  const h = hostName(host);
  return IPV4_RE.test(h) || h.startsWith('[') || h.includes(':');
}

/** The root host: the bare product domain or localhost (www counts as the main site too). */
export function isRootHost(host: string, productDomain: string): boolean {
  const h = hostName(host);
  return h === productDomain || h === 'localhost' || h === `www.${productDomain}`;
}

/**
 * A tenant subdomain host: ends in the product domain and is not the bare domain, www,
 * localhost or an IP address.
 */
export function isTenantHost(host: string, productDomain: string): boolean {
  const h = hostName(host);
  if (isIpHost(h) || isRootHost(h, productDomain)) return false;
  return h.endsWith(`.${productDomain}`);
}

/**
 * The company login route is available when the host has more dot-separated parts than the
 * product domain ("three or more" for a two-part domain such as example.com).
 */
export function companyLoginAvailable(host: string, productDomain: string): boolean {
  const h = hostName(host);
  return isTenantHost(h, productDomain) && h.split('.').length >= productDomain.split('.').length + 1;
}

/**
 * The subdomain of a tenant host ('acme' of acme.status.example.com), or null when the host is
 * not a tenant host or its prefix is not a single DNS label ('Invalid subdomain').
 */
export function subdomainOf(host: string, productDomain: string): string | null {
  const h = hostName(host);
  if (!isTenantHost(h, productDomain)) return null;
  const prefix = h.slice(0, -(productDomain.length + 1));
  return DNS_LABEL_RE.test(prefix) ? prefix : null;
}

export type HostClass = { kind: 'root' } | { kind: 'tenant'; subdomain: string } | { kind: 'invalid' };

export function classifyHost(host: string, productDomain: string): HostClass {
  if (isRootHost(host, productDomain)) return { kind: 'root' };
  const sub = subdomainOf(host, productDomain);
  return sub ? { kind: 'tenant', subdomain: sub } : { kind: 'invalid' };
}

const DNS_LABEL_RE = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Words a company cannot take as its subdomain: they name the platform's own hosts. */
export const RESERVED_SUBDOMAINS: readonly string[] = [
  'www',
  'api',
  'admin',
  'app',
  'status',
  'mail',
  'localhost',
  'smtp',
  'imap',
  'pop',
  'ftp',
  'ns',
  'ns1',
  'ns2',
  'dns',
  'mx',
  'static',
  'assets',
  'cdn',
  'auth',
  'login',
  'signup',
  'dashboard',
  'console',
  'support',
  'help',
  'docs',
  'blog',
  'billing',
  'root',
  'system',
  'internal',
  'test',
  'dev',
  'staging',
];

/** Why a subdomain is not acceptable, or null when it is (uniqueness is checked by the server). */
export function subdomainProblem(subdomain: string): string | null {
  if (!subdomain) return 'Subdomain is required.';
  if (subdomain.length > 63) return 'Subdomain must be at most 63 characters.';
  if (!DNS_LABEL_RE.test(subdomain)) {
    return 'Subdomain may contain only lowercase letters, digits and hyphens, and must start and end with a letter or digit.';
  }
  if (RESERVED_SUBDOMAINS.includes(subdomain)) return `The subdomain '${subdomain}' is reserved. Please choose another.`;
  return null;
}

/** A subdomain derived from a name ('Acme Corp.' → 'acme-corp'), possibly empty. */
export function slugifySubdomain(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}

/** Origin of a company's host, keeping the port of the current request (dev and tests). */
export function tenantOrigin(scheme: string, subdomain: string, productDomain: string, port: string): string {
  return `${scheme}://${subdomain}.${productDomain}${port}`;
}

/** Origin of the main site. */
export function mainOrigin(scheme: string, productDomain: string, port: string): string {
  return `${scheme}://${productDomain}${port}`;
}

/**
 * A path to go to after a redirect, only when it stays on this host: one leading slash, no
 * scheme-relative `//`, no backslash (browsers read `/\` as `//`), no control characters.
 * Anything else is the dashboard, so a crafted link can never send a user elsewhere.
 */
export function safeLocalPath(next: unknown, fallback = '/dashboard'): string {
  if (typeof next !== 'string' || next.length > 2048) return fallback;
  if (!next.startsWith('/') || next.startsWith('//') || /[\\\x00-\x1f\x7f]/.test(next)) return fallback;
  return next;
}
