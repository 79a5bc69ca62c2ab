// What every probe call does first (issue 27): the token is looked up on each call, so a revoked
// one is refused (401) from the next call on, and its last use is recorded now and then.
import { probeLocationsRepo, type ProbeTokenAuthRow } from '../../db/repositories/probe-locations-repo.ts';
import type { Services } from '../context.ts';
import { verifyProbeToken } from './hello.ts';

/** last_used_at is written at most once a minute per token (a probe calls every few seconds). */
export const TOUCH_EVERY_MS = 60_000;

export async function probeCall(services: Services, presented: string | null): Promise<ProbeTokenAuthRow> {
  const token = await verifyProbeToken(services, presented);
  const now = services.now();
  if (token.last_used_at === null || now - token.last_used_at >= TOUCH_EVERY_MS)
    await probeLocationsRepo(services.db).touchToken(token.id, now);
  return token;
}
