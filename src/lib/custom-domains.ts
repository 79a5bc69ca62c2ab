// Custom domains of a company's status page (status.acme.com): which names are acceptable, and
// the DNS records that prove the company controls one. Pure; shared by the server and console.
import { hostName, isIpHost, isRootHost } from './hosts.ts';

/** The TXT record's name is this label in front of the custom domain. */
export const CHALLENGE_LABEL = '_statuswatch-challenge';

/** A company may point at most this many host names at its page. */
export const CUSTOM_DOMAINS_PER_COMPANY = 5;

export type CustomDomainState = 'pending' | 'verified' | 'failed';

const LABEL_RE = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Name of the TXT record that carries the verification token. */
export function challengeName(domain: string): string {
  return `${CHALLENGE_LABEL}.${domain}`;
}

/** A domain as typed, lower-cased, trailing dot and surrounding space removed. */
export function normalizeCustomDomain(raw: string): string {
  return raw.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * Why a (normalized) name cannot be a custom domain, or null when it can: a full host name of at
 * least two labels, not an IP address, not localhost, not the product's own domain or a name
 * under it (those are the platform's subdomains). Uniqueness is checked by the server.
 */
export function customDomainProblem(domain: string, productDomain: string): string | null {
  if (!domain) return 'Domain is required.';
  if (domain.length > 253) return 'A domain has at most 253 characters.';
  if (isIpHost(domain) || /^[\d.]+$/.test(domain)) return 'Enter a host name such as status.example.com, not an IP address.';
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL_RE.test(l)) || /^\d+$/.test(labels[labels.length - 1])) {
    return 'Enter a host name such as status.example.com (letters, digits and hyphens between dots).';
  }
  const product = productDomain.toLowerCase();
  if (isRootHost(domain, product) || domain.endsWith(`.${product}`) || domain === 'localhost' || domain.endsWith('.localhost')) {
    return `Names under ${product} are the platform's own; enter your company's domain.`;
  }
  return null;
}

/**
 * A Host that may be a company's custom domain: not the main site, not under the product's
 * domain, not an IP address. Only such hosts are looked up in the custom-domain table.
 */
export function isForeignHost(host: string, productDomain: string): boolean {
  const h = hostName(host);
  if (!h || isIpHost(h) || isRootHost(h, productDomain)) return false;
  return !h.endsWith(`.${productDomain}`);
}
