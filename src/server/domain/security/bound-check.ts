// Before anything connects to an asset (a vulnerability scan, a TLS analysis), the name is
// resolved again: every address it points to must be one its proof of control vouches for.
// Otherwise nothing connects, and the asset shows "proof needs renewing" until an admin proves
// control again. The resolver handed back keeps to those addresses for the whole run, so a name
// re-pointed mid-scan reaches nothing new either.
import { securityAssetsRepo, type SecurityAssetRow } from '../../db/repositories/security-assets-repo.ts';
import type { Resolver } from '../../engine/dns-lookup.ts';
import { boundResolver, parseBound, unboundAddresses } from '../../security/assets/bound-addresses.ts';
import { addressesOf } from '../../security/assets/verify.ts';
import type { Services } from '../context.ts';
import { flagRenewal, proofEnv, verifyOne } from './verification.ts';

export type BoundCheck = { ok: true; resolve: Resolver } | { ok: false; reason: string };

export async function checkBoundAddresses(services: Services, asset: SecurityAssetRow, signal?: AbortSignal): Promise<BoundCheck> {
  let a: SecurityAssetRow | undefined = asset;
  if (a.renewal_reason !== null) return { ok: false, reason: a.renewal_reason };
  if (a.verified_addresses === null) {
    // Verified before proofs bound addresses: the proof is looked up (and bound) first.
    await verifyOne(services, a, services.now(), 'job');
    a = await securityAssetsRepo(services.db).get(asset.company_id, asset.id);
    if (!a || a.verified_at === null) return { ok: false, reason: `${asset.hostname} is not verified: nothing was contacted.` };
    if (a.renewal_reason !== null) return { ok: false, reason: a.renewal_reason };
  }
  const env = proofEnv(services);
  const bound = parseBound(a.verified_addresses) ?? [];
  const outside = unboundAddresses(await addressesOf(a.hostname, env, signal), bound);
  if (outside.length > 0) return { ok: false, reason: await flagRenewal(services.db, a, outside, services.now()) };
  return { ok: true, resolve: boundResolver(env.resolve, bound) };
}
