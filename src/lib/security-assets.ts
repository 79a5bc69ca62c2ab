// The security suite's assets, pure and shared by the server and the console: which names may be
// registered, what proves control of one (a DNS TXT record or a file under /.well-known/), and
// which domain covers a host.
import type { Resource } from './permissions.ts';
import { normalizeTargetHost } from './target-host.ts';

/** Rights over assets: the resource the Security menu entry is shown for (the role table gives the four security resources the same rights). */
export const ASSET_RESOURCE: Resource = 'threat_intelligence';
/** Rights over a finding: those of the analysis that raised it. */
export const FINDING_SOURCE_RESOURCE = {
  ssl: 'ssl_monitoring',
  dns: 'domain_checks',
  scan: 'vulnerability_scans',
  threat: 'threat_intelligence',
} as const satisfies Record<string, Resource>;

export const ASSET_KINDS = ['domain', 'host'] as const;
export type AssetKindName = (typeof ASSET_KINDS)[number];

/** The TXT record's value starts with this, followed by the asset's token. */
export const TXT_PREFIX = 'statuswatch-verification=';
/** The TXT record may sit on the name itself or on this label under it (names that are CNAMEs can hold no TXT). */
export const TXT_LABEL = '_statuswatch';
export const WELL_KNOWN_PATH = '/.well-known/statuswatch-verification.txt';

/** How often a verified asset's proof is looked up again; one that is gone stops being verified. */
export const REVERIFY_PERIOD_MS = 24 * 3_600_000;

/**
 * The stored form of an asset's name (lower case, ASCII, no trailing dot), or why it is refused.
 * A name, never an address: control of a name is what a TXT record proves, and an address may
 * change hands without its owner knowing.
 */
export function assetHostname(raw: string): { hostname: string } | { error: string } {
  const trimmed = raw.trim();
  if (trimmed === '') return { error: 'Enter a host name, such as example.com or www.example.com.' };
  const h = normalizeTargetHost(trimmed);
  if (!h || h.includes(':') || /^[\d.]+$/.test(h))
    return { error: 'Enter a host name (letters, digits and hyphens between dots), not an address or a URL.' };
  if (!h.includes('.')) return { error: 'Enter a fully qualified name with at least one dot, such as example.com.' };
  return { hostname: h };
}

/** True when `host` is `domain` itself or a name under it. */
export function isUnder(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** What the owner publishes to prove control: the TXT record (name and value) or the file (URL and body). */
export function proofInstructions(hostname: string, token: string) {
  return {
    txt_name: hostname,
    txt_alt_name: `${TXT_LABEL}.${hostname}`,
    txt_value: `${TXT_PREFIX}${token}`,
    file_url: `https://${hostname}${WELL_KNOWN_PATH}`,
    file_body: token,
  };
}
