// The security suite's assets: the domains and hosts a company registers, and the proof that it
// controls them. Rights: the `threat_intelligence` resource (the one the Security menu entry is
// shown for): company admins view, create and update (register, verify); viewers view; removing
// an asset is a delete, so super admins only. Super admins see every company or the chosen one.
// A company whose `services.security` is off has no security suite: its users are refused.
import { randomBytes } from 'node:crypto';
import { ASSET_RESOURCE, assetHostname, isUnder } from '../../../lib/security-assets.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { securityAssetsRepo, type SecurityAssetRow } from '../../db/repositories/security-assets-repo.ts';
import { securityFindingsRepo } from '../../db/repositories/security-findings-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import type { AssetKind } from '../../db/schema/security.ts';
import { internalDnsName } from '../../net/ssrf.ts';
import { companyScope, requireActor, requirePermission } from '../authz.ts';
import { parseServices } from '../company/present.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { flagOn } from '../flags/flags.ts';
import { newId } from '../ids.ts';
import { presentAsset, type Sections } from './present.ts';
import { addressesOf } from '../../security/assets/verify.ts';
import { proofEnv, verifyOne } from './verification.ts';

/** A company's assets at most (422 beyond). */
export const MAX_ASSETS_PER_COMPANY = 500;
/** "Verify now" looks an asset's proof up at most this often (429 before). */
export const VERIFY_INTERVAL_MS = 10_000;

/** Each analysis is shown while its flag is on; with every one off the suite answers 404. */
export async function securitySections(ctx: Ctx): Promise<Sections> {
  const s = ctx.services;
  const sections: Sections = {
    ssl: await flagOn(s, 'ENABLE_SSL_MONITORING'),
    dns: await flagOn(s, 'ENABLE_DOMAIN_CHECKS'),
    scan: await flagOn(s, 'ENABLE_VULNERABILITY_SCANS'),
    threat: await flagOn(s, 'ENABLE_THREAT_INTELLIGENCE'),
  };
  if (!Object.values(sections).some(Boolean)) throw new DomainError('not_found', 'The security suite is switched off on this platform.');
  return sections;
}

/** Company users of a company without the security service are refused (super admins are not). */
export async function requireSecurityService(ctx: Ctx): Promise<void> {
  const actor = requireActor(ctx);
  if (actor.role === 'super_admin' || !actor.companyId) return;
  const company = await companiesRepo(ctx.services.db).findById(actor.companyId);
  if (!company || !parseServices(company.services).security)
    throw new DomainError('forbidden', "The security suite is not part of your company's services. Ask your platform administrator.");
}

async function presentAll(ctx: Ctx, scope: string | null, rows: SecurityAssetRow[], sections: Sections) {
  const findings = securityFindingsRepo(ctx.services.db);
  const [results, open] = await Promise.all([findings.listResults(scope), findings.list({ companyId: scope, status: 'open' })]);
  return rows.map((a) => presentAsset(a, results, open, sections));
}

export async function listAssets(ctx: Ctx, q: { tenant?: string }) {
  requirePermission(ctx, 'view', ASSET_RESOURCE, 'view security assets');
  await requireSecurityService(ctx);
  const sections = await securitySections(ctx);
  const scope = companyScope(ctx, q.tenant);
  const rows = await securityAssetsRepo(ctx.services.db).list(scope);
  return { assets: await presentAll(ctx, scope, rows, sections), sections };
}

async function findAsset(ctx: Ctx, id: string): Promise<SecurityAssetRow> {
  const row = await securityAssetsRepo(ctx.services.db).get(companyScope(ctx, null), id);
  if (!row) throw notFound('Asset');
  return row;
}

async function presentOne(ctx: Ctx, row: SecurityAssetRow, sections: Sections) {
  const [one] = await presentAll(ctx, row.company_id, [row], sections);
  return one;
}

export async function getAsset(ctx: Ctx, id: string) {
  requirePermission(ctx, 'view', ASSET_RESOURCE, 'view security assets');
  await requireSecurityService(ctx);
  const sections = await securitySections(ctx);
  return presentOne(ctx, await findAsset(ctx, id), sections);
}

export interface CreateAssetInput {
  hostname: string;
  kind: AssetKind;
  /** Super admins: the company the asset is for (required for them, ignored for others) */
  company_id?: string;
}

/**
 * Registers a name. Another company may have registered the same name: each company proves
 * control for itself. A host under a verified domain asset of the company is covered at once.
 */
export async function createAsset(ctx: Ctx, input: CreateAssetInput) {
  const actor = requirePermission(ctx, 'create', ASSET_RESOURCE, 'add security assets');
  await requireSecurityService(ctx);
  const sections = await securitySections(ctx);
  const companyId = companyScope(ctx, input.company_id);
  if (!companyId) throw new DomainError('validation', 'Choose the company the asset belongs to.', { fields: { company_id: 'required' } });
  if (actor.role === 'super_admin' && !(await companiesRepo(ctx.services.db).findById(companyId)))
    throw new DomainError('validation', 'Unknown company.', { fields: { company_id: 'unknown company' } });
  const name = assetHostname(input.hostname);
  if ('error' in name) throw new DomainError('validation', name.error, { fields: { hostname: name.error } });
  const internal = internalDnsName(name.hostname, ctx.services.config.allowPrivateTargets);
  if (internal) throw new DomainError('validation', internal, { fields: { hostname: internal } });
  const repo = securityAssetsRepo(ctx.services.db);
  const mine = await repo.list(companyId);
  if (mine.some((a) => a.hostname === name.hostname))
    throw new DomainError('conflict', `${name.hostname} is already registered.`, { fields: { hostname: 'already registered' } });
  if (mine.length >= MAX_ASSETS_PER_COMPANY)
    throw new DomainError('limit_exceeded', `A company may register at most ${MAX_ASSETS_PER_COMPANY} assets.`);
  const now = ctx.services.now();
  const row: SecurityAssetRow = {
    id: newId(),
    company_id: companyId,
    hostname: name.hostname,
    kind: input.kind,
    verification_token: randomBytes(18).toString('base64url'),
    verification_method: null,
    verified_at: null,
    last_verification_at: null,
    last_verification_error: null,
    verified_addresses: null,
    renewal_reason: null,
    renewal_needed_at: null,
    created_at: now,
    updated_at: now,
  };
  const covered =
    input.kind === 'host' && mine.some((d) => d.kind === 'domain' && d.verified_at !== null && isUnder(row.hostname, d.hostname));
  // Looked up before the transaction (no network inside one): the asset and its cover commit together.
  const addresses = covered ? await addressesOf(row.hostname, proofEnv(ctx.services)) : null;
  await withTransaction(ctx.services.db, async (tx) => {
    await securityAssetsRepo(tx).insert(row);
    if (addresses) await securityAssetsRepo(tx).markVerified(row.id, 'domain', now, addresses);
  });
  return presentOne(ctx, (await repo.get(companyId, row.id))!, sections);
}

/**
 * Looks the proof up now (the TXT record, the file, or a verified domain's cover) and answers
 * the asset as it then is: verified (bound to the addresses seen now, which settles a "proof
 * needs renewing"), or not with the reason in `last_verification_error`.
 */
export async function verifyAsset(ctx: Ctx, id: string) {
  requirePermission(ctx, 'update', ASSET_RESOURCE, 'verify security assets');
  await requireSecurityService(ctx);
  const sections = await securitySections(ctx);
  const row = await findAsset(ctx, id);
  const now = ctx.services.now();
  const since = row.last_verification_at === null ? Infinity : now - row.last_verification_at;
  if (since < VERIFY_INTERVAL_MS) {
    const wait = Math.ceil((VERIFY_INTERVAL_MS - since) / 1000);
    throw new DomainError('rate_limited', `This asset was checked a moment ago. Try again in ${wait} s.`, { retryAfter: wait });
  }
  await verifyOne(ctx.services, row, now, 'admin');
  return presentOne(ctx, (await securityAssetsRepo(ctx.services.db).get(row.company_id, row.id))!, sections);
}

/** Removes an asset with its results and findings (a delete: super admins only). */
export async function deleteAsset(ctx: Ctx, id: string): Promise<void> {
  requirePermission(ctx, 'delete', ASSET_RESOURCE, 'remove security assets');
  const row = await findAsset(ctx, id);
  await securityAssetsRepo(ctx.services.db).delete(row.company_id, row.id);
}
