// Which RDAP server answers for a domain: IANA's bootstrap data for DNS (RFC 9224) maps TLDs to
// base URLs. The product ships a subset of IANA's file (rdap-bootstrap.json, in IANA's format);
// the operator replaces it with IANA's current one (RDAP_BOOTSTRAP_FILE) and overrides single
// TLDs (RDAP_BASE_URLS="example=http://127.0.0.1:8080/"). Overridden base URLs are the operator's
// configuration and trusted; bootstrap ones go through the SSRF guard like any other target.
import { readFileSync } from 'node:fs';

export interface BootstrapFile {
  description?: string;
  publication: string;
  version: string;
  services: Array<[string[], string[]]>;
}

export interface RdapBase {
  url: string;
  /** true for the operator's RDAP_BASE_URLS (no SSRF guard) */
  trusted: boolean;
}

export type RdapDirectory = (domain: string) => RdapBase | null;

export const SHIPPED_BOOTSTRAP = new URL('./rdap-bootstrap.json', import.meta.url);

/** Reads and checks a bootstrap file; throws with a line naming what is wrong. */
export function readBootstrap(path: string | URL): BootstrapFile {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<BootstrapFile>;
  const ok =
    typeof parsed.publication === 'string' &&
    Array.isArray(parsed.services) &&
    parsed.services.every(
      (s) =>
        Array.isArray(s) &&
        Array.isArray(s[0]) &&
        Array.isArray(s[1]) &&
        s[1].every((u) => typeof u === 'string' && /^https?:\/\//.test(u)),
    );
  if (!ok) throw new Error('not an RDAP bootstrap file (publication and services [[tlds], [base URLs]] expected)');
  return parsed as BootstrapFile;
}

/**
 * The base URL for a domain: the operator's override for its TLD, else the bootstrap's entry
 * with the longest matching label suffix (RFC 9224 section 4), preferring https.
 */
export function rdapDirectory(file: BootstrapFile, overrides: Readonly<Record<string, string>>): RdapDirectory {
  const table = new Map<string, string>();
  for (const [tlds, urls] of file.services) {
    const url = urls.find((u) => u.startsWith('https://')) ?? urls[0];
    for (const t of tlds) if (url) table.set(t.toLowerCase(), url.endsWith('/') ? url : `${url}/`);
  }
  return (domain) => {
    const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
    for (let i = 0; i < labels.length; i++) {
      const suffix = labels.slice(i).join('.');
      const own = overrides[suffix];
      if (own) return { url: own.endsWith('/') ? own : `${own}/`, trusted: true };
      const listed = table.get(suffix);
      if (listed) return { url: listed, trusted: false };
    }
    return null;
  };
}

const directories = new Map<string, RdapDirectory>();

/**
 * The directory of the operator's settings (RDAP_BOOTSTRAP_FILE, else the shipped file, and
 * RDAP_BASE_URLS), built once per setting: the engine asks for it on every domain check.
 */
export function configuredRdapDirectory(file: string | URL | undefined, overrides: Readonly<Record<string, string>> = {}): RdapDirectory {
  const path = file ?? SHIPPED_BOOTSTRAP;
  const key = `${String(path)}\n${JSON.stringify(overrides)}`;
  let d = directories.get(key);
  if (!d) {
    d = rdapDirectory(readBootstrap(path), overrides);
    directories.set(key, d);
  }
  return d;
}
