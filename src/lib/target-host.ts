// Target hosts of monitors, pure and shared by the server and the console: a DNS name of
// letter-digit-hyphen labels (international names are turned into their xn-- ASCII form) or an
// IPv4/IPv6 literal. Anything else (`;id`, `$(id)`, spaces, newlines, empty labels) is refused
// before it reaches a resolver, a socket or a log line.

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6_CHARS = /^[0-9a-f:.]+$/i;
/** What a name may hold before it is turned into ASCII: letters, marks, digits, '.', '-', '_'. */
const NAME_CHARS = /^[\p{L}\p{M}\p{N}._-]+$/u;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
/** DNS query names may use underscores (_dmarc, _sip._tcp); host names to connect to may not. */
const LABEL_WITH_UNDERSCORE = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

export function isIPv4(host: string): boolean {
  return IPV4.test(host);
}

/** The canonical form of an IPv6 literal (no brackets), or null. */
export function canonicalIPv6(host: string): string | null {
  if (!host.includes(':') || !IPV6_CHARS.test(host)) return null;
  try {
    return new URL(`http://[${host}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/**
 * The host in the form it is stored and used (lower case, ASCII, no trailing dot, IPv6 without
 * brackets), or null when `raw` is neither a DNS name nor an IP address.
 */
export function normalizeTargetHost(raw: string, opts: { underscore?: boolean } = {}): string | null {
  if (raw.length === 0 || raw.length > 300) return null;
  const bracketed = /^\[(.*)\]$/.exec(raw);
  if (bracketed) return canonicalIPv6(bracketed[1]);
  if (raw.includes(':')) return canonicalIPv6(raw);
  if (isIPv4(raw)) return raw;
  const name = raw.endsWith('.') ? raw.slice(0, -1) : raw;
  if (!NAME_CHARS.test(name)) return null;
  let ascii = name.toLowerCase();
  if (!/^[\x21-\x7e]*$/.test(ascii)) {
    try {
      ascii = new URL(`http://${name}/`).hostname; // IDNA: bücher.example → xn--bcher-kva.example
    } catch {
      return null;
    }
  }
  return isDnsName(ascii, opts.underscore ?? false) ? ascii : null;
}

function isDnsName(ascii: string, underscore: boolean): boolean {
  if (ascii.length > 253) return false;
  const labels = ascii.split('.');
  const label = underscore ? LABEL_WITH_UNDERSCORE : LABEL;
  // An all-numeric last label is an IPv4 address in disguise (127.1, 0x7f.1), not a name.
  return labels.every((l) => label.test(l)) && !/^\d+$/.test(labels[labels.length - 1]);
}

/**
 * A DNS server given as host, host:port, [v6]:port or a bare IPv6 address: its normalized host
 * and port, or null.
 */
export function parseHostPort(raw: string): { host: string; port?: number } | null {
  const bracketed = /^\[([^\]]+)\](?::([^:]*))?$/.exec(raw);
  const colons = raw.split(':').length - 1;
  const [host, port] = bracketed ? [bracketed[1], bracketed[2]] : colons === 1 ? raw.split(':') : [raw, undefined];
  if (port !== undefined && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)) return null;
  const h = normalizeTargetHost(host);
  if (!h) return null;
  return port === undefined ? { host: h } : { host: h, port: Number(port) };
}

/** host:port again, with IPv6 in brackets when a port follows. */
export function formatHostPort(hp: { host: string; port?: number }): string {
  if (hp.port === undefined) return hp.host;
  return hp.host.includes(':') ? `[${hp.host}]:${hp.port}` : `${hp.host}:${hp.port}`;
}
