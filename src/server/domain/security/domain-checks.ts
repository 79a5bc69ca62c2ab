// The Domains and DNS screen's calls (resource domain_checks, flag ENABLE_DOMAIN_CHECKS): every
// domain asset of the company with its latest check (registration, records, e-mail
// authentication, DNSSEC, dangling CNAMEs) and open findings; the admin's DKIM selectors and
// watched names; a check on demand. Viewers read; company admins also change settings and check.
import type { Ctx } from '../context.ts';
import { companyScope, requirePermission } from '../authz.ts';
import { DomainError, notFound } from '../errors.ts';
import { toIso, toIsoOrNull } from '../ids.ts';
import { flagOn } from '../flags/flags.ts';
import { securityAssetsRepo, type SecurityAssetRow } from '../../db/repositories/security-assets-repo.ts';
import { securityFindingsRepo, type SecurityFindingRow, type SecurityResultRow } from '../../db/repositories/security-findings-repo.ts';
import { domainSettingsRepo, type DomainSettingsRow } from '../../db/repositories/domain-settings-repo.ts';
import { RECORD_SETS } from '../../security/domains/records.ts';
import { runDomainCheck, type DomainResultData } from './domain-check-run.ts';

export const NOT_AVAILABLE = 'Domain checks are not available.';
/** A check on demand at most this often per domain */
export const MANUAL_CHECK_INTERVAL_MS = 60_000;
export const MAX_DKIM_SELECTORS = 10;
export const MAX_WATCHED_NAMES = 50;

/** Findings are listed worst first, then by key */
const SEVERITY_RANK = ['critical', 'high', 'medium', 'low', 'info'];
const SELECTOR_RE = /^[a-z0-9](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9](?:[a-z0-9_-]{0,62}))*$/;
const HOST_RE = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

async function requireEnabled(ctx: Ctx): Promise<void> {
  if (!(await flagOn(ctx.services, 'ENABLE_DOMAIN_CHECKS'))) throw new DomainError('not_found', NOT_AVAILABLE);
}

const iso = (ms: number | null | undefined) => toIsoOrNull(ms == null ? null : Number(ms));

function presentResult(row: SecurityResultRow | undefined) {
  if (!row) return null;
  const d = JSON.parse(row.data) as DomainResultData;
  return {
    checked_at: toIso(Number(row.checked_at)),
    registration_expires_at: iso(d.registration_expires_at),
    registrar: d.registrar,
    registered_at: iso(d.registered_at),
    registration_status: d.registration_status,
    registry_nameservers: d.registry_nameservers,
    rdap_error: d.rdap_error,
    records: RECORD_SETS.map((set) => ({ type: set.toUpperCase(), values: d.records[set], changed_at: iso(d.record_changed_at[set]) })),
    last_changes: d.last_changes && {
      at: toIso(d.last_changes.at),
      changes: d.last_changes.changes.map((c) => ({ type: c.set.toUpperCase(), added: c.added, removed: c.removed })),
    },
    spf: d.spf,
    dmarc: d.dmarc,
    dkim: d.dkim,
    mta_sts: d.mta_sts,
    dnssec: d.dnssec,
    cnames: d.cnames,
  };
}

function presentFinding(f: SecurityFindingRow) {
  return {
    id: f.id,
    key: f.key,
    severity: f.severity,
    title: f.title,
    evidence: f.evidence,
    status: f.status,
    status_reason: f.status_reason,
    first_seen_at: toIso(Number(f.first_seen_at)),
    last_seen_at: toIso(Number(f.last_seen_at)),
  };
}

function present(
  a: SecurityAssetRow,
  settings: DomainSettingsRow | undefined,
  result: SecurityResultRow | undefined,
  findings: SecurityFindingRow[],
) {
  return {
    id: a.id,
    company_id: a.company_id,
    hostname: a.hostname,
    verified: a.verified_at !== null,
    dkim_selectors: settings ? (JSON.parse(settings.dkim_selectors) as string[]) : [],
    watched_names: settings ? (JSON.parse(settings.watched_names) as string[]) : [],
    result: presentResult(result),
    findings: findings
      .filter((f) => f.asset_id === a.id && f.status !== 'fixed')
      .sort((x, y) => SEVERITY_RANK.indexOf(x.severity) - SEVERITY_RANK.indexOf(y.severity) || x.key.localeCompare(y.key))
      .map(presentFinding),
  };
}

export type DomainCheckView = ReturnType<typeof present>;

export async function listDomainChecks(ctx: Ctx, input: { tenant?: string }): Promise<{ domains: DomainCheckView[] }> {
  requirePermission(ctx, 'view', 'domain_checks');
  await requireEnabled(ctx);
  const companyId = companyScope(ctx, input.tenant);
  const db = ctx.services.db;
  const assets = (await securityAssetsRepo(db).list(companyId)).filter((a) => a.kind === 'domain');
  const settings = new Map((await domainSettingsRepo(db).list(companyId)).map((s) => [s.asset_id, s]));
  const results = new Map((await securityFindingsRepo(db).listResults(companyId, 'dns')).map((r) => [r.asset_id, r]));
  const findings = await securityFindingsRepo(db).list({ companyId, source: 'dns' });
  return { domains: assets.map((a) => present(a, settings.get(a.id), results.get(a.id), findings)) };
}

async function ownDomain(ctx: Ctx, id: string): Promise<SecurityAssetRow> {
  const asset = await securityAssetsRepo(ctx.services.db).get(companyScope(ctx), id);
  if (asset?.kind !== 'domain') throw notFound('Domain');
  return asset;
}

async function view(ctx: Ctx, asset: SecurityAssetRow): Promise<DomainCheckView> {
  const db = ctx.services.db;
  const findings = await securityFindingsRepo(db).list({ companyId: asset.company_id, assetId: asset.id, source: 'dns' });
  return present(asset, await domainSettingsRepo(db).get(asset.id), await securityFindingsRepo(db).getResult(asset.id, 'dns'), findings);
}

export async function getDomainCheck(ctx: Ctx, id: string): Promise<DomainCheckView> {
  requirePermission(ctx, 'view', 'domain_checks');
  await requireEnabled(ctx);
  return view(ctx, await ownDomain(ctx, id));
}

function cleanList(raw: string[], max: number, field: string, valid: (s: string) => string | null): string[] {
  const out = [...new Set(raw.map((s) => s.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean))];
  if (out.length > max) throw new DomainError('validation', `At most ${max} entries.`, { fields: { [field]: `At most ${max} entries` } });
  for (const s of out) {
    const problem = valid(s);
    if (problem) throw new DomainError('validation', problem, { fields: { [field]: problem } });
  }
  return out.sort();
}

export async function putDomainSettings(
  ctx: Ctx,
  id: string,
  input: { dkim_selectors: string[]; watched_names: string[] },
): Promise<DomainCheckView> {
  requirePermission(ctx, 'update', 'domain_checks');
  await requireEnabled(ctx);
  const asset = await ownDomain(ctx, id);
  const selectors = cleanList(input.dkim_selectors, MAX_DKIM_SELECTORS, 'dkim_selectors', (s) =>
    SELECTOR_RE.test(s) && s.length <= 100 ? null : `"${s}" is not a DKIM selector (letters, digits, - and _, dot-separated)`,
  );
  const names = cleanList(input.watched_names, MAX_WATCHED_NAMES, 'watched_names', (s) =>
    !HOST_RE.test(s)
      ? `"${s}" is not a host name`
      : s === asset.hostname || !s.endsWith(`.${asset.hostname}`)
        ? `${s} is not a name under ${asset.hostname}`
        : null,
  );
  await domainSettingsRepo(ctx.services.db).put({
    asset_id: asset.id,
    company_id: asset.company_id,
    dkim_selectors: JSON.stringify(selectors),
    watched_names: JSON.stringify(names),
    updated_at: ctx.services.now(),
  });
  return view(ctx, asset);
}

export async function checkDomainNow(ctx: Ctx, id: string): Promise<DomainCheckView> {
  requirePermission(ctx, 'update', 'domain_checks');
  await requireEnabled(ctx);
  const asset = await ownDomain(ctx, id);
  if (asset.verified_at === null)
    throw new DomainError('conflict', `${asset.hostname} is not verified: nothing is checked until its company proves control of it.`);
  const last = await securityFindingsRepo(ctx.services.db).getResult(asset.id, 'dns');
  const wait = last ? Number(last.checked_at) + MANUAL_CHECK_INTERVAL_MS - ctx.services.now() : 0;
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    throw new DomainError('rate_limited', `${asset.hostname} was checked less than a minute ago. Please try again in ${seconds} s.`, {
      retryAfter: seconds,
    });
  }
  await runDomainCheck(ctx.services, asset.id);
  return view(ctx, (await securityAssetsRepo(ctx.services.db).get(null, asset.id)) ?? asset);
}
