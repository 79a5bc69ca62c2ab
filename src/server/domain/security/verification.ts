// Whether a company still controls its assets: "Verify now" and the daily re-verification job
// both come here. A host under a verified domain asset of the same company is covered by the
// domain's proof; any other asset needs its own (security/assets/verify.ts). An asset whose
// proof is gone becomes unverified at once (nothing active is done to it any more), and its
// company's admins are told; the hosts its domain covered lose their cover in the same step.
// A proof binds the addresses the name had (security/assets/bound-addresses.ts): an admin's
// "Verify now" binds the addresses seen then; the daily job keeps the binding and, when the name
// points elsewhere, marks the asset "proof needs renewing" and tells the admins.
import { isUnder, REVERIFY_PERIOD_MS } from '../../../lib/security-assets.ts';
import { securityAssetsRepo, type SecurityAssetRow } from '../../db/repositories/security-assets-repo.ts';
import { withTransaction, type DbScope } from '../../db/scope.ts';
import { dnsResolver } from '../../net/dns-lookup.ts';
import { notifyIn } from '../../notify/notify.ts';
import { parseBound, unboundAddresses } from '../../security/assets/bound-addresses.ts';
import { addressesOf, proveControl, type Proof, type ProofEnv } from '../../security/assets/verify.ts';
import type { Services } from '../context.ts';

/** What one verification did to an asset. */
export type VerificationOutcome = 'verified' | 'confirmed' | 'lost' | 'unverified';
/** admin: "Verify now", which binds the addresses seen now; job: the daily re-check, which keeps the binding. */
export type VerifiedBy = 'admin' | 'job';
type FoundProof = Proof | { ok: true; method: 'domain'; addresses: string[] };

/** Assets re-verified per job run, and at once. */
const BATCH = 200;
const PARALLEL = 8;

async function coveringDomain(db: DbScope, asset: SecurityAssetRow): Promise<SecurityAssetRow | undefined> {
  if (asset.kind !== 'host') return undefined;
  const mine = await securityAssetsRepo(db).list(asset.company_id);
  return mine.find((d) => d.kind === 'domain' && d.id !== asset.id && d.verified_at !== null && isUnder(asset.hostname, d.hostname));
}

export function proofEnv(services: Services): ProofEnv {
  return {
    dnsServers: services.config.dnsResolvers,
    resolve: services.monitoring?.resolve ?? dnsResolver(services.config.dnsResolvers),
    allowPrivateTargets: services.config.allowPrivateTargets,
    extraCa: services.monitoring?.extraCa,
    seams: services.securityVerification,
  };
}

/** The proof of `asset` now: its verified domain's cover (the host's addresses now), else a TXT record or the file. */
export async function lookUpProof(services: Services, asset: SecurityAssetRow): Promise<FoundProof> {
  const env = proofEnv(services);
  if (await coveringDomain(services.db, asset)) return { ok: true, method: 'domain', addresses: await addressesOf(asset.hostname, env) };
  return proveControl(asset, env);
}

/**
 * Marks the asset "proof needs renewing" (once: the admins are told when it starts) and answers
 * the reason, which the scans and analyses refused to connect with.
 */
export async function flagRenewal(db: DbScope, asset: SecurityAssetRow, outside: string[], now: number): Promise<string> {
  const bound = parseBound(asset.verified_addresses) ?? [];
  const reason =
    `${asset.hostname} now points to ${outside.join(', ')}, but its proof of control vouches for ${bound.length ? bound.join(', ') : 'no address'}. ` +
    'Nothing connects to it until an admin proves control again (Verify now).';
  if (asset.renewal_reason !== null) return asset.renewal_reason;
  await withTransaction(db, async (tx) => {
    await securityAssetsRepo(tx).markRenewalNeeded(asset.id, reason, now);
    await notifyIn(tx, now)(asset.company_id, {
      type: 'security_report',
      severity: 'medium',
      title: `The proof of control of ${asset.hostname} needs renewing`,
      message:
        `${asset.hostname} points to other addresses than when your company proved control of it, so it is not scanned or analysed any more. ` +
        'If the new addresses are yours, choose Verify now on the Security screen.',
      details: reason,
      metadata: { asset_id: asset.id, hostname: asset.hostname, addresses: outside },
      actionUrl: '/security',
      audience: 'admins',
      dedupeKey: `security-asset-renewal:${asset.id}:${now}`,
    });
  });
  return reason.slice(0, 500);
}

/** Stores what a lookup found; a lost proof notifies the company's admins in the same transaction. */
async function record(services: Services, asset: SecurityAssetRow, proof: FoundProof, now: number, by: VerifiedBy) {
  const outcome = await withTransaction(services.db, async (tx): Promise<VerificationOutcome> => {
    const repo = securityAssetsRepo(tx);
    if (proof.ok) {
      if (asset.verified_at === null) {
        await repo.markVerified(asset.id, proof.method, now, proof.addresses);
        return 'verified';
      }
      // The job binds an asset verified before addresses were bound; otherwise only an admin re-binds.
      const rebind = by === 'admin' || asset.verified_addresses === null;
      await repo.confirmVerified(asset.id, proof.method, now, rebind ? proof.addresses : undefined);
      return 'confirmed';
    }
    await repo.markUnverified(asset.id, proof.error, now);
    if (asset.verified_at === null) return 'unverified';
    await notifyIn(tx, now)(asset.company_id, {
      type: 'security_report',
      severity: 'high',
      title: `${asset.hostname} is no longer verified`,
      message:
        `The proof that your company controls ${asset.hostname} is gone, so nothing is checked or scanned on it any more. ` +
        'Publish the TXT record or the file shown on the Security screen again, then choose Verify now.',
      details: proof.error,
      metadata: { asset_id: asset.id, hostname: asset.hostname, kind: asset.kind },
      actionUrl: '/security',
      audience: 'admins',
      dedupeKey: `security-asset-unverified:${asset.id}:${now}`,
    });
    return 'lost';
  });
  if (proof.ok && by === 'job' && asset.verified_at !== null && asset.verified_addresses !== null) {
    const outside = unboundAddresses(proof.addresses, parseBound(asset.verified_addresses) ?? []);
    if (outside.length > 0) await flagRenewal(services.db, asset, outside, now);
    // The name points back within its proven addresses: nothing to renew any more.
    else if (asset.renewal_reason !== null) await securityAssetsRepo(services.db).clearRenewal(asset.id, now);
  }
  return outcome;
}

/**
 * Looks up the proof of one asset and stores the outcome. A domain that lost its proof takes
 * the cover from the hosts under it: each is checked at once for a proof of its own.
 */
export async function verifyOne(services: Services, asset: SecurityAssetRow, now: number, by: VerifiedBy): Promise<VerificationOutcome> {
  const outcome = await record(services, asset, await lookUpProof(services, asset), now, by);
  if (outcome === 'lost' && asset.kind === 'domain') {
    const covered = (await securityAssetsRepo(services.db).list(asset.company_id)).filter(
      (h) => h.kind === 'host' && h.verification_method === 'domain' && h.verified_at !== null && isUnder(h.hostname, asset.hostname),
    );
    for (const host of covered) await verifyOne(services, host, now, by);
  }
  return outcome;
}

/** The job's run: every asset whose proof was last looked up a period ago (or never), domains first. */
export async function reverifyDueAssets(services: Services, now: number): Promise<Record<VerificationOutcome, number>> {
  const due = await securityAssetsRepo(services.db).listDueForVerification(now - REVERIFY_PERIOD_MS, BATCH);
  const counts: Record<VerificationOutcome, number> = { verified: 0, confirmed: 0, lost: 0, unverified: 0 };
  const domains = due.filter((a) => a.kind === 'domain');
  const hosts = due.filter((a) => a.kind === 'host');
  for (const group of [domains, hosts]) {
    for (let i = 0; i < group.length; i += PARALLEL) {
      const outcomes = await Promise.all(
        group.slice(i, i + PARALLEL).map(async (a) => {
          // A domain handled earlier in this run may have re-checked this host already.
          const fresh = await securityAssetsRepo(services.db).get(a.company_id, a.id);
          if (!fresh || (fresh.last_verification_at ?? 0) >= now) return null;
          return verifyOne(services, fresh, now, 'job');
        }),
      );
      for (const o of outcomes) if (o) counts[o] += 1;
    }
  }
  return counts;
}
