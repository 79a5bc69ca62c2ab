// Whether a company still controls its assets: "Verify now" and the daily re-verification job
// both come here. A host under a verified domain asset of the same company is covered by the
// domain's proof; any other asset needs its own (security/assets/verify.ts). An asset whose
// proof is gone becomes unverified at once (nothing active is done to it any more), and its
// company's admins are told; the hosts its domain covered lose their cover in the same step.
import { isUnder, REVERIFY_PERIOD_MS } from '../../../lib/security-assets.ts';
import { securityAssetsRepo, type SecurityAssetRow } from '../../db/repositories/security-assets-repo.ts';
import { withTransaction, type DbScope } from '../../db/scope.ts';
import { dnsResolver } from '../../engine/dns-lookup.ts';
import { notifyIn } from '../../notify/notify.ts';
import { proveControl, type Proof } from '../../security/assets/verify.ts';
import type { Services } from '../context.ts';

/** What one verification did to an asset. */
export type VerificationOutcome = 'verified' | 'confirmed' | 'lost' | 'unverified';

/** Assets re-verified per job run, and at once. */
const BATCH = 200;
const PARALLEL = 8;

async function coveringDomain(db: DbScope, asset: SecurityAssetRow): Promise<SecurityAssetRow | undefined> {
  if (asset.kind !== 'host') return undefined;
  const mine = await securityAssetsRepo(db).list(asset.company_id);
  return mine.find((d) => d.kind === 'domain' && d.id !== asset.id && d.verified_at !== null && isUnder(asset.hostname, d.hostname));
}

/** The proof of `asset` now: its verified domain's cover (no traffic), else a TXT record or the file. */
export async function lookUpProof(services: Services, asset: SecurityAssetRow): Promise<Proof | { ok: true; method: 'domain' }> {
  if (await coveringDomain(services.db, asset)) return { ok: true, method: 'domain' };
  return proveControl(asset, {
    dnsServers: services.config.dnsResolvers,
    resolve: services.monitoring?.resolve ?? dnsResolver(services.config.dnsResolvers),
    allowPrivateTargets: services.config.allowPrivateTargets,
    extraCa: services.monitoring?.extraCa,
    seams: services.securityVerification,
  });
}

/** Stores what a lookup found; a lost proof notifies the company's admins in the same transaction. */
async function record(services: Services, asset: SecurityAssetRow, proof: Proof | { ok: true; method: 'domain' }, now: number) {
  return withTransaction(services.db, async (tx): Promise<VerificationOutcome> => {
    const repo = securityAssetsRepo(tx);
    if (proof.ok) {
      if (asset.verified_at !== null) await repo.confirmVerified(asset.id, proof.method, now);
      else await repo.markVerified(asset.id, proof.method, now);
      return asset.verified_at !== null ? 'confirmed' : 'verified';
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
}

/**
 * Looks up the proof of one asset and stores the outcome. A domain that lost its proof takes
 * the cover from the hosts under it: each is checked at once for a proof of its own.
 */
export async function verifyOne(services: Services, asset: SecurityAssetRow, now: number): Promise<VerificationOutcome> {
  const outcome = await record(services, asset, await lookUpProof(services, asset), now);
  if (outcome === 'lost' && asset.kind === 'domain') {
    const covered = (await securityAssetsRepo(services.db).list(asset.company_id)).filter(
      (h) => h.kind === 'host' && h.verification_method === 'domain' && h.verified_at !== null && isUnder(h.hostname, asset.hostname),
    );
    for (const host of covered) await verifyOne(services, host, now);
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
          return verifyOne(services, fresh, now);
        }),
      );
      for (const o of outcomes) if (o) counts[o] += 1;
    }
  }
  return counts;
}
