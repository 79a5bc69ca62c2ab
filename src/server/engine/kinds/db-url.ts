// The connection URL of database kinds (postgres://, mysql://, redis://): scheme, host and port
// checked; the password part moved out of the URL into the `password` field, which is stored
// sealed (secret-box.ts), so the stored and shown URL never holds it.
import { normalizeTargetHost } from '../../../lib/target-host.ts';
import type { ConfigReader, ValidatedConfig } from './kind.ts';

export interface DbUrlConfig {
  url?: string;
  password?: string | null;
}

const HOST_TEXT = 'URL host must be a host name like db.example.com or an IP address';

export function validateDbUrl(
  pick: ConfigReader<DbUrlConfig>,
  schemes: readonly string[],
  example: string,
): ValidatedConfig<{ url: string; password: string | null }> & { parsed: URL | null } {
  const problems: Record<string, string> = {};
  const raw = String(pick('url') ?? '').trim();
  let parsed: URL | null = null;
  try {
    parsed = new URL(raw);
  } catch {
    problems.url = `URL is required, like ${example}`;
  }
  if (parsed && !schemes.includes(parsed.protocol.slice(0, -1))) {
    problems.url = `URL must start with ${schemes.map((s) => `${s}://`).join(' or ')}`;
    parsed = null;
  }
  let target: { host: string; field: 'url' } | null = null;
  let password = pick('password') ?? null;
  if (parsed) {
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (!host || !normalizeTargetHost(host)) problems.url = HOST_TEXT;
    else target = { host, field: 'url' };
    if (parsed.port && (Number(parsed.port) < 1 || Number(parsed.port) > 65535)) problems.url = 'Port must be between 1 and 65535';
    // The URL's password wins over the field; either way it leaves the URL.
    if (parsed.password) password = decodeURIComponent(parsed.password);
    parsed.password = '';
  }
  // A stored password comes back sealed (longer than typed): only a new one is measured.
  if (typeof password === 'string' && !password.startsWith('sealed:') && password.length > 1024)
    problems.password = 'Password must be at most 1024 characters';
  return { config: { url: parsed?.href ?? raw, password }, problems, target, parsed };
}

/** The user, database and port of a checked URL (the password is the config's own field). */
export function dbUrlParts(url: string | undefined, defaultPort: number): { url: URL; host: string; port: number } | null {
  try {
    const u = new URL(url ?? '');
    return { url: u, host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port ? Number(u.port) : defaultPort };
  } catch {
    return null;
  }
}
