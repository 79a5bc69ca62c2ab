// Before anything connects to an asset (a vulnerability scan, a TLS analysis), the name is
// resolved again: every address it points to must be one its proof of control vouches for.
// Otherwise nothing connects, and the asset shows "proof needs renewing" until an admin proves
// control again. The resolver handed back keeps to those addresses for the whole run, so a name
// re-pointed mid-scan reaches nothing new either.
import { securityAssetsRepo, type SecurityAssetRow } from '../../db/repositories/security-assets-repo.ts';
import type { Resolver } from '../../net/dns-lookup.ts';
import { boundResolver, parseBound, unboundAddresses } from '../../security/assets/bound-addresses.ts';
import { addressesOf } from '../../security/assets/verify.ts';
import type { Services } from '../context.ts';
import { flagRenewal, proofEnv } from './verification.ts';

export type BoundCheck = { ok: true; resolve: Resolver } | { ok: false; reason: string };

export async function checkBoundAddresses(services: Services, asset: SecurityAssetRow, signal?: AbortSignal): Promise<BoundCheck> {
  if (asset.renewal_reason !== null) return { ok: false, reason: asset.renewal_reason };
  const env = proofEnv(services);
  const now = await addressesOf(asset.hostname, env, signal);
  let bound = parseBound(asset.verified_addresses);
  if (bound === null) {
    // Verified before proofs bound addresses (its proof is looked up daily): bound to what the
    // name points to at its first use, as its next lookup would.
    bound = now;
    await securityAssetsRepo(services.db).bindAddresses(asset.id, bound, services.now());
  }
  const outside = unboundAddresses(now, bound);
  if (outside.length > 0) return { ok: false, reason: await flagRenewal(services.db, asset, outside, services.now()) };
  return { ok: true, resolve: boundResolver(env.resolve, bound) };
}
