// Custom domains of a company's status page (issue 17 item 5). Company admins (and super admins
// for the company chosen in the selector) list, add and verify; removing follows the role
// table's `delete`, which only super admins hold. A domain is served only while verified
// (routes.ts); adding, verifying, failing and removing drop this process's routing table.
import { randomBytes } from 'node:crypto';
import {
  CUSTOM_DOMAINS_PER_COMPANY,
  challengeName,
  customDomainProblem,
  isForeignHost,
  normalizeCustomDomain,
} from '../../../lib/custom-domains.ts';
import type { Config } from '../../config.ts';
import { companiesRepo, type CompanyRow } from '../../db/repositories/companies-repo.ts';
import { customDomainsRepo, type CustomDomainRow } from '../../db/repositories/custom-domains-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { dnsRecords } from '../../net/dns-records.ts';
import { internalDnsName } from '../../net/ssrf.ts';
import { auditFromCtx } from '../audit/record.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx, Services } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { checkProof, type ProofOutcome } from './proof.ts';
import { servedSubdomain } from './routes.ts';

/** The host a custom domain's CNAME must name: CUSTOM_DOMAIN_TARGET, else the company's own host. */
export function cnameTarget(config: Pick<Config, 'customDomainTarget' | 'productDomain'>, subdomain: string): string {
  return config.customDomainTarget ?? `${subdomain}.${config.productDomain}`;
}

/**
 * Why the platform's resolver must not be asked about this name, or null: the internal zones
 * and private reverse zones that DNS monitors and security assets refuse too (unless the
 * operator opened private targets). Said before any lookup, in words that do not depend on
 * whether the name exists, so adding or verifying one learns nothing of the internal network.
 */
function internalNameProblem(services: Services, domain: string): string | null {
  const internal = internalDnsName(domain, services.config.allowPrivateTargets);
  return internal && `Enter a public domain: ${internal.replace(/^Target refused: /, '')}.`;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function present(config: Config, row: CustomDomainRow, subdomain: string) {
  return {
    id: row.id,
    company_id: row.company_id,
    domain: row.domain,
    state: row.state,
    verified_at: iso(row.verified_at),
    checked_at: iso(row.checked_at),
    last_error: row.last_error,
    created_at: iso(row.created_at)!,
    records: [
      { type: 'CNAME' as const, name: row.domain, value: cnameTarget(config, subdomain) },
      { type: 'TXT' as const, name: challengeName(row.domain), value: row.token },
    ],
  };
}

/** The company written to: the user's own, or the one a super admin chose. */
async function companyOf(ctx: Ctx, tenant: string | undefined): Promise<CompanyRow> {
  const id = companyScope(ctx, tenant);
  if (id === null) throw new DomainError('validation', 'Choose a company in the tenant selector to manage its custom domains.');
  const company = await companiesRepo(ctx.services.db).findById(id);
  if (!company) throw notFound('Company');
  return company;
}

async function subdomainsOf(services: Services, rows: CustomDomainRow[]): Promise<Map<string, string>> {
  const repo = companiesRepo(services.db);
  const ids = [...new Set(rows.map((r) => r.company_id))];
  const companies = await Promise.all(ids.map((id) => repo.findById(id)));
  return new Map(companies.flatMap((c) => (c ? [[c.id, c.subdomain ?? '']] : [])));
}

export async function listCustomDomains(ctx: Ctx, tenant?: string) {
  requirePermission(ctx, 'view', 'settings', 'view custom domains');
  const rows = await customDomainsRepo(ctx.services.db).list(companyScope(ctx, tenant));
  const subdomains = await subdomainsOf(ctx.services, rows);
  return { items: rows.map((r) => present(ctx.services.config, r, subdomains.get(r.company_id) ?? '')) };
}

/** How long an unverified name stays reserved for the company that added it. */
export const CLAIM_HOLD_MS = 24 * 3_600_000;

/**
 * Another company's claim that never proved control, a day after it was added: it gives way, so
 * nobody can keep a name from its owner by adding it first. A name that was verified once stays
 * with its company (while it fails its checks too) until a super admin removes it.
 */
function isStaleClaim(held: CustomDomainRow, companyId: string, now: number): boolean {
  return held.company_id !== companyId && held.verified_at === null && now - Number(held.created_at) >= CLAIM_HOLD_MS;
}

export async function addCustomDomain(ctx: Ctx, tenant: string | undefined, input: { domain: string }) {
  requirePermission(ctx, 'create', 'settings', 'add custom domains');
  const company = await companyOf(ctx, tenant);
  const domain = normalizeCustomDomain(input.domain);
  const problem = customDomainProblem(domain, ctx.services.config.productDomain) ?? internalNameProblem(ctx.services, domain);
  if (problem) throw new DomainError('validation', problem, { fields: { domain: problem } });
  const repo = customDomainsRepo(ctx.services.db);
  const now = ctx.services.now();
  const taken = `${domain} is already in use.`;
  const held = await repo.findByDomain(domain);
  if (held && !isStaleClaim(held, company.id, now)) throw new DomainError('conflict', taken, { fields: { domain: taken } });
  if ((await repo.countOf(company.id)) >= CUSTOM_DOMAINS_PER_COMPANY) {
    throw new DomainError('limit_exceeded', `A company may have at most ${CUSTOM_DOMAINS_PER_COMPANY} custom domains.`);
  }
  const id = newId();
  try {
    await withTransaction(ctx.services.db, async (tx) => {
      if (held) await customDomainsRepo(tx).delete(held.company_id, held.id);
      await customDomainsRepo(tx).insert({
        id,
        company_id: company.id,
        domain,
        token: `sw-verify-${randomBytes(18).toString('base64url')}`,
        state: 'pending',
        verified_at: null,
        checked_at: null,
        last_error: null,
        created_at: now,
        updated_at: now,
      });
      await auditFromCtx(tx, ctx, 'settings_update', { area: 'custom_domain', action: 'add', domain }, undefined, company.id);
    });
  } catch (e) {
    // Two companies adding one name at the same moment: the unique index decides.
    if (await repo.findByDomain(domain)) throw new DomainError('conflict', taken, { fields: { domain: taken } });
    throw e;
  }
  ctx.services.state.customDomainRoutes.invalidate();
  return present(ctx.services.config, (await repo.get(company.id, id))!, company.subdomain ?? '');
}

/** Checks a domain's records now ("Verify now"): verified when both are right, failed otherwise. */
export async function verifyCustomDomain(ctx: Ctx, tenant: string | undefined, id: string) {
  requirePermission(ctx, 'update', 'settings', 'verify custom domains');
  const company = await companyOf(ctx, tenant);
  const repo = customDomainsRepo(ctx.services.db);
  const row = await repo.get(company.id, id);
  if (!row) throw notFound('Custom domain');
  const outcome = await proveControl(ctx.services, row, company.subdomain ?? '');
  const now = ctx.services.now();
  // The DNS look-ups above are done before it: the outcome and its audit row commit together.
  await withTransaction(ctx.services.db, async (tx) => {
    if (outcome.kind === 'proven') await customDomainsRepo(tx).markVerified(row.id, now);
    else await customDomainsRepo(tx).markFailed(row.id, outcome.error, now);
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { area: 'custom_domain', action: 'verify', domain: row.domain, outcome: outcome.kind },
      undefined,
      company.id,
    );
  });
  ctx.services.state.customDomainRoutes.invalidate();
  return present(ctx.services.config, (await repo.get(company.id, id))!, company.subdomain ?? '');
}

export async function deleteCustomDomain(ctx: Ctx, tenant: string | undefined, id: string): Promise<void> {
  requirePermission(ctx, 'delete', 'settings', 'remove custom domains');
  const company = await companyOf(ctx, tenant);
  const repo = customDomainsRepo(ctx.services.db);
  const row = await repo.get(company.id, id);
  if (!row) throw notFound('Custom domain');
  await withTransaction(ctx.services.db, async (tx) => {
    if (!(await customDomainsRepo(tx).delete(company.id, id))) throw notFound('Custom domain');
    await auditFromCtx(tx, ctx, 'settings_update', { area: 'custom_domain', action: 'remove', domain: row.domain }, undefined, company.id);
  });
  ctx.services.state.customDomainRoutes.invalidate();
}

/** The TLS proxy's question (Caddy on-demand TLS `ask`): may a certificate be obtained for this name? */
export async function isServedCustomDomain(services: Services, domain: string): Promise<boolean> {
  const name = normalizeCustomDomain(domain);
  if (!isForeignHost(name, services.config.productDomain)) return false;
  return (await servedSubdomain(services, name)) !== null;
}

export async function proveControl(services: Services, row: CustomDomainRow, subdomain: string): Promise<ProofOutcome> {
  // A name stored before internal names were refused (or while private targets were open)
  const internal = internalNameProblem(services, row.domain);
  if (internal) return { kind: 'refuted', error: internal };
  return checkProof(dnsRecords(services.config.dnsResolvers), row.domain, row.token, cnameTarget(services.config, subdomain));
}
