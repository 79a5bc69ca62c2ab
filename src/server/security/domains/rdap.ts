// Registration data of a domain through RDAP (RFC 9082 queries, RFC 9083 answers): expiry and
// registration dates from `events`, the registrar from the entity with role `registrar` (its
// vCard `fn`), the EPP status values and the delegated name servers.
import { TargetRefused, type PrivateTargets, type Resolver } from '../../net/ssrf.ts';
import { guardedGet, GetFailure, type GetPhases } from './guarded-get.ts';
import type { RdapDirectory } from '../../net/rdap-bootstrap.ts';

export interface Registration {
  expiresAt: number | null;
  registeredAt: number | null;
  registrar: string | null;
  status: string[];
  nameservers: string[];
}

interface RdapEntity {
  roles?: unknown;
  vcardArray?: unknown;
  entities?: unknown;
}

const MAX_BYTES = 512 * 1024;

function eventDate(events: unknown, action: string): number | null {
  if (!Array.isArray(events)) return null;
  const e = events.find((x: { eventAction?: unknown }) => x?.eventAction === action) as { eventDate?: unknown } | undefined;
  const t = typeof e?.eventDate === 'string' ? Date.parse(e.eventDate) : NaN;
  return Number.isFinite(t) ? t : null;
}

/** The `fn` of a jCard (RFC 7095): ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "Name"]]] */
function vcardName(vcard: unknown): string | null {
  if (!Array.isArray(vcard) || !Array.isArray(vcard[1])) return null;
  const fn = (vcard[1] as unknown[]).find((p) => Array.isArray(p) && p[0] === 'fn') as unknown[] | undefined;
  return typeof fn?.[3] === 'string' && fn[3].trim() ? fn[3].trim().slice(0, 200) : null;
}

function registrarOf(entities: unknown): string | null {
  if (!Array.isArray(entities)) return null;
  for (const e of entities as RdapEntity[]) {
    if (Array.isArray(e?.roles) && e.roles.includes('registrar')) return vcardName(e.vcardArray);
  }
  return null;
}

/** Reads an RDAP domain object; throws when the answer is not one. */
export function parseRdapDomain(json: unknown): Registration {
  const o = json as Record<string, unknown> | null;
  if (!o || typeof o !== 'object' || o.objectClassName !== 'domain') throw new GetFailure('the answer is not an RDAP domain object');
  const nameservers = Array.isArray(o.nameservers)
    ? (o.nameservers as Array<{ ldhName?: unknown }>)
        .map((n) => (typeof n?.ldhName === 'string' ? n.ldhName.toLowerCase().replace(/\.$/, '') : ''))
        .filter(Boolean)
        .sort()
    : [];
  return {
    expiresAt: eventDate(o.events, 'expiration'),
    registeredAt: eventDate(o.events, 'registration'),
    registrar: registrarOf(o.entities),
    status: Array.isArray(o.status) ? (o.status as unknown[]).filter((s): s is string => typeof s === 'string').slice(0, 20) : [],
    nameservers,
  };
}

export interface RdapEnv {
  directory: RdapDirectory;
  allowPrivateTargets: PrivateTargets;
  resolve: Resolver;
  extraCa?: readonly string[];
}

/** The domain's registration, or why it could not be had (a short text of ours, never the server's). */
export async function lookupRegistration(
  domain: string,
  env: RdapEnv,
  signal: AbortSignal,
  phases?: GetPhases,
): Promise<{ registration: Registration } | { error: string }> {
  const base = env.directory(domain);
  if (!base) return { error: `No RDAP server is known for .${domain.split('.').pop()}` };
  const url = new URL(`domain/${encodeURIComponent(domain)}`, base.url);
  try {
    const answer = await guardedGet(url, {
      // The operator's own base URLs are configuration, not a tenant's target.
      allowPrivateTargets: base.trusted ? true : env.allowPrivateTargets,
      resolve: env.resolve,
      extraCa: env.extraCa,
      accept: 'application/rdap+json, application/json',
      maxBytes: MAX_BYTES,
      signal,
      phases,
    });
    if (answer.status === 404) return { error: 'The registry has no registration data for this domain (RDAP 404)' };
    if (answer.status !== 200) return { error: `The RDAP server answered HTTP ${answer.status}` };
    let json: unknown;
    try {
      json = JSON.parse(answer.body);
    } catch {
      return { error: 'The RDAP server answered something that is not JSON' };
    }
    return { registration: parseRdapDomain(json) };
  } catch (e) {
    if (signal.aborted) return { error: 'The RDAP server did not answer in time' };
    if (e instanceof TargetRefused || e instanceof GetFailure) return { error: `RDAP: ${e.message}` };
    return { error: 'The RDAP server could not be reached' };
  }
}
