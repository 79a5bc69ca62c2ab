// Links between the main host and company subdomains, and where a user goes after signing in
// (spec section 4, "Login flow"). Pure: the current location is passed in.
import type { CurrentUser } from './boot.ts';

export interface Here {
  protocol: string; // 'http:' | 'https:'
  port: string; // '' for the default port
}

function origin(host: string, here: Here): string {
  return `${here.protocol}//${host}${here.port ? ':' + here.port : ''}`;
}

export function mainSiteUrl(productDomain: string, path: string, here: Here): string {
  return origin(productDomain, here) + path;
}

export function companySiteUrl(subdomain: string, productDomain: string, path: string, here: Here): string {
  return origin(`${subdomain}.${productDomain}`, here) + path;
}

/** The "generic company host" used when a company user's subdomain cannot be found. */
export const GENERIC_COMPANY_SUBDOMAIN = 'app';

/**
 * Where to go after a successful sign-in. The server's `redirect_to` (which carries a one-time
 * handoff code when the target is another host) wins; otherwise the spec's rules. A page that
 * sent the visitor to sign in (`next`, already checked to be a console path) is where they
 * return, when the sign-in keeps them on this host.
 */
export function afterLoginTarget(input: {
  user: Pick<CurrentUser, 'user_type' | 'company'>;
  redirectTo?: string | null;
  onTenantHost: boolean;
  productDomain: string;
  companySubdomain?: string | null;
  here: Here;
  next?: string | null;
}): string {
  const target = loginTarget(input);
  return input.next && target.startsWith('/') ? input.next : target;
}

function loginTarget(input: Parameters<typeof afterLoginTarget>[0]): string {
  const { user, redirectTo, onTenantHost, productDomain, here } = input;
  if (redirectTo) return redirectTo;
  if (user.user_type === '1') return onTenantHost ? mainSiteUrl(productDomain, '/dashboard', here) : '/dashboard';
  if (user.user_type === '2' || user.user_type === '3') {
    if (onTenantHost) return '/dashboard';
    const sub = user.company?.subdomain || input.companySubdomain;
    return sub ? companySiteUrl(sub, productDomain, '/dashboard', here) : '/dashboard';
  }
  return '/';
}

/** A company's public status page: the root of its subdomain (spec: "/" on a tenant host), with the host as its text. */
export function statusPageAddress(
  subdomain: string | null | undefined,
  productDomain: string,
  here: Here,
): { href: string; text: string } | null {
  if (!subdomain) return null;
  const href = companySiteUrl(subdomain, productDomain, '/', here);
  return { href, text: href.replace(/^https?:\/\//, '').replace(/\/$/, '') };
}
