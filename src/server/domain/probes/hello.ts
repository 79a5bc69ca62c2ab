// A probe's first call (issue 27): `POST /api/v1/probe/hello` with its token. It names the probe
// (location and instance name), records its version and when it was seen, and tells an old
// probe to upgrade rather than misbehave. The probe token is the only credential taken here, and
// it is taken nowhere else: a user's session or API token is refused here (401), and a probe
// token elsewhere fails as an unknown API token (401, http/auth/resolve-actor.ts).
import { compareVersions, PROBE_MIN_VERSION } from '../../../lib/probe-locations.ts';
import { probeLocationsRepo, type ProbeTokenAuthRow } from '../../db/repositories/probe-locations-repo.ts';
import { probesRepo } from '../../db/repositories/probes-repo.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { hashSecret } from '../auth/tokens.ts';
import { SlidingWindow } from '../auth/throttle.ts';
import type { Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { PROBE_TOKEN_PREFIX } from './tokens.ts';

const INVALID = 'This probe token is invalid or revoked.';
/** last_used_at is written at most once a minute per token (a probe calls every few seconds). */
const TOUCH_EVERY_MS = 60_000;
/** Hellos per token a minute: a probe says hello when it starts; a loop of restarts is throttled. */
const HELLOS_PER_MINUTE = 30;

declare module '../context.ts' {
  interface ProcessState {
    /** Recent hellos per probe token, this process (hello.ts): a flood guard, not a security limit */
    probeHellos: SlidingWindow;
  }
}

export const newProbeHelloWindow = (): SlidingWindow => new SlidingWindow(HELLOS_PER_MINUTE, 60_000);

/** The hash a probe token of the right form is looked up by; null for anything else. */
export function probeTokenHash(presented: string | null): string | null {
  if (presented === null || !presented.startsWith(PROBE_TOKEN_PREFIX) || presented.length > 200) return null;
  return hashSecret(presented);
}

/** The token's location, or 401 for an unknown or revoked token (or one of an inactive company). */
export async function verifyProbeToken(services: Services, presented: string | null): Promise<ProbeTokenAuthRow> {
  if (presented === null) throw new DomainError('unauthorized', 'A probe token is required: Authorization: Bearer swp_…');
  const hash = probeTokenHash(presented);
  if (hash === null) throw new DomainError('unauthorized', INVALID);
  const row = await probeLocationsRepo(services.db).findTokenByHash(hash);
  if (!row || row.revoked_at !== null) throw new DomainError('unauthorized', INVALID);
  if (row.company_id !== null && !row.company_active)
    throw new DomainError('unauthorized', 'The company of this probe location is inactive.');
  return row;
}

export interface ProbeHello {
  probe_id: string;
  location: { slug: string; name: string; private: boolean };
  min_version: string;
  upgrade: boolean;
}

export async function probeHello(
  services: Services,
  presented: string | null,
  input: { instance: string; version: string; capabilities?: string[] },
): Promise<ProbeHello> {
  const token = await verifyProbeToken(services, presented);
  const now = services.now();
  const hellos = services.state.probeHellos;
  const retryAfter = hellos.retryAfter(token.id, now);
  if (retryAfter > 0)
    throw new DomainError('rate_limited', `Too many hellos from this probe token. Try again in ${retryAfter} s.`, { retryAfter });
  hellos.hit(token.id, now);
  const instance = input.instance.trim();
  if (!instance)
    throw new DomainError('validation', 'The instance name is required.', { fields: { instance: 'The instance name is required.' } });
  const capabilities = [...new Set(input.capabilities ?? [])].sort().join(',');
  const probeId = await recordProbe(services, token, instance, input.version, capabilities, now);
  if (token.last_used_at === null || now - token.last_used_at >= TOUCH_EVERY_MS)
    await probeLocationsRepo(services.db).touchToken(token.id, now);
  return {
    probe_id: probeId,
    location: { slug: token.slug, name: token.name, private: token.company_id !== null },
    min_version: PROBE_MIN_VERSION,
    upgrade: compareVersions(input.version, PROBE_MIN_VERSION) < 0,
  };
}

/** The probe's row: the same instance of a location is one probe across restarts and new tokens. */
async function recordProbe(
  services: Services,
  token: ProbeTokenAuthRow,
  instance: string,
  version: string,
  capabilities: string,
  now: number,
): Promise<string> {
  const repo = probesRepo(services.db);
  const known = await repo.findByInstance(token.location_id, instance);
  if (known) {
    await repo.seen(known.id, token.id, version, capabilities, now);
    return known.id;
  }
  const id = newId();
  try {
    await repo.insert({
      id,
      location_id: token.location_id,
      token_id: token.id,
      instance,
      version,
      first_seen_at: now,
      last_seen_at: now,
      checks_per_second: null,
      lag_ms: null,
      capabilities,
    });
    return id;
  } catch (e) {
    // Two hellos of one new instance at once: the other wrote the row first.
    if (!isUniqueViolation(e)) throw e;
    const row = await repo.findByInstance(token.location_id, instance);
    if (!row) throw e;
    await repo.seen(row.id, token.id, version, capabilities, now);
    return row.id;
  }
}
