// Browser exporters (the OpenTelemetry web SDK) POST spans across origins with an Authorization
// header, so the browser sends a CORS preflight first, without the key. The preflight is
// therefore answered for the company of the host it came to: an origin listed on any of its
// active keys may go on; the POST then checks the origin against that key's own list
// (ingest.ts). Origins are kept as the browser sends them: scheme://host[:port], lower case.
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { apiKeysRepo } from '../../db/repositories/api-keys-repo.ts';
import { classifyHost } from '../../../lib/hosts.ts';

export const MAX_ORIGINS = 20;

/** The origin as a browser's Origin header spells it, or null when s is not an http(s) origin. */
export function originOf(s: string): string | null {
  let u: URL;
  try {
    u = new URL(s.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) return null;
  return u.origin;
}

/** Checked and normalised origins for a key (duplicates removed), or a validation error naming the bad one. */
export function allowedOriginsOf(input: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of input) {
    const o = originOf(s);
    if (!o)
      throw new DomainError('validation', `"${s}" is not a browser origin: write scheme://host[:port], http or https, without a path.`, {
        fields: { allowed_origins: 'Each entry must be an origin such as https://shop.example.com' },
      });
    if (!out.includes(o)) out.push(o);
  }
  if (out.length > MAX_ORIGINS) throw new DomainError('validation', `A key may list at most ${MAX_ORIGINS} origins.`);
  return out;
}

export function parseStoredOrigins(text: string): string[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

const REFUSED = (origin: string) =>
  new DomainError('forbidden', `Origin ${origin} may not send spans here: add it to the allowed origins of an ingest key.`);

/**
 * The preflight of a browser export: allowed when some active key of the host's company lists
 * the origin. Answers the origin to echo; throws forbidden otherwise (also off company hosts,
 * where no company is known without the key).
 */
export async function checkPreflight(ctx: Ctx, origin: string): Promise<string> {
  const normal = originOf(origin);
  const h = classifyHost(ctx.host, ctx.services.config.productDomain);
  if (!normal || h.kind !== 'tenant') throw REFUSED(origin.slice(0, 200));
  const lists = await apiKeysRepo(ctx.services.db).originsOnHost(h.subdomain);
  if (!lists.some((t) => parseStoredOrigins(t).includes(normal))) throw REFUSED(normal);
  return origin;
}

/** The POST of a browser export: its key must list the origin. */
export function checkKeyOrigin(origin: string, allowed: string): void {
  const normal = originOf(origin);
  if (!normal || !parseStoredOrigins(allowed).includes(normal)) throw REFUSED((normal ?? origin).slice(0, 200));
}
