// One threat-intelligence run for one company (jobs/threat-intel.ts runs it for each company with
// threat_feed_enabled): for each verified asset, its addresses, its reputation on the operator's
// DNS blocklists and its matches in the imported feeds, saved as the asset's 'threat' result with
// findings; its domains' lookalikes checked for registration (a bounded, rate-limited number per
// run; one that became registered since its previous check raises one `security_report`); and
// its e-mail domain looked up at the breach provider when the company has `data_breach`.
import type { Config } from '../../config.ts';
import type { DbScope } from '../../db/scope.ts';
import { withTransaction } from '../../db/scope.ts';
import { securityAssetsRepo, type SecurityAssetRow } from '../../db/repositories/security-assets-repo.ts';
import { securityFindingsRepo, type FindingInput } from '../../db/repositories/security-findings-repo.ts';
import { threatRepo } from '../../db/repositories/threat-repo.ts';
import type { Resolver } from '../../net/dns-lookup.ts';
import { notifyIn } from '../../notify/notify.ts';
import { normalizeIp } from './addresses.ts';
import { lookupBreaches, BreachLookupError } from './breach.ts';
import { checkBlocklists, type BlocklistListing } from './dnsbl.ts';
import type { ThreatDns } from './dns.ts';
import { lookalikes } from './lookalikes.ts';
import { matchFeeds, type FeedMatch } from './match.ts';

const DAY_MS = 86_400_000;

export type Reputation = 'clean' | 'listed' | 'unknown';

/** The 'threat' result of an asset (security_results.data); reputation and listings are the /security overview's contract. */
export interface ThreatResultData {
  reputation: Reputation;
  /** One line per listing: 'zen.example: 127.0.0.2 (spam source)', 'URLhaus: malware_download' */
  listings: string[];
  addresses: string[];
  blocklists: BlocklistListing[];
  feed_matches: FeedMatch[];
}

export interface ThreatRunDeps {
  config: Config;
  dns: ThreatDns;
  /** A and AAAA of an asset (the engine's resolver on DNS_RESOLVERS) */
  resolve: Resolver;
  /** Waits between lookalike questions (tests pass a no-op) */
  sleep?: (ms: number) => Promise<void>;
}

export interface CompanyRunSummary {
  assets: number;
  listed: number;
  lookalikesChecked: number;
  newlyRegistered: string[];
}

const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function addressesOf(resolve: Resolver, host: string): Promise<string[]> {
  if (normalizeIp(host)) return [host];
  try {
    const answers = await resolve(host, { signal: AbortSignal.timeout(5000) });
    return [...new Set(answers.map((a) => normalizeIp(a.address)).filter((a): a is string => a !== undefined))].sort();
  } catch {
    return [];
  }
}

export function listingLines(blocklists: BlocklistListing[], matches: FeedMatch[]): string[] {
  return [
    ...blocklists.map((l) => `${l.zone}: ${l.subject} ${l.answer}${l.reason ? ` (${l.reason})` : ''}`),
    ...matches.map((m) => `${m.feed}: ${m.indicator} ${m.threat}`),
  ];
}

async function assessAsset(db: DbScope, deps: ThreatRunDeps, asset: SecurityAssetRow, now: number): Promise<ThreatResultData> {
  const addresses = await addressesOf(deps.resolve, asset.hostname);
  const verdict = await checkBlocklists(deps.dns, deps.config.threat.blocklists, { domain: asset.hostname, ips: addresses });
  const matched = await matchFeeds(db, [asset.hostname, ...addresses]);
  const feed_matches = [...matched.values()].flat();
  const listings = listingLines(verdict.listings, feed_matches);
  const nothingToAsk = deps.config.threat.blocklists.length === 0 && deps.config.threat.feeds.length === 0;
  const reputation: Reputation = listings.length > 0 ? 'listed' : verdict.incomplete || nothingToAsk ? 'unknown' : 'clean';
  const data: ThreatResultData = { reputation, listings, addresses, blocklists: verdict.listings, feed_matches };
  const findings: FindingInput[] = [
    ...verdict.listings.map((l) => ({
      key: `dnsbl.${l.zone}.${l.subject}`,
      severity: 'high' as const,
      title: `${l.subject} is listed on the blocklist ${l.zone}`,
      evidence: `${l.answer}${l.reason ? ` ${l.reason}` : ''}`,
    })),
    ...feed_matches.map((m) => ({
      key: `feed.${m.feed}.${m.indicator}`,
      severity: 'high' as const,
      title: `${m.subject} is listed by ${m.feed} as ${m.threat}`,
      evidence: `${m.indicator}${m.tags ? ` [${m.tags}]` : ''}, listed since ${new Date(m.first_seen_at).toISOString().slice(0, 10)}`,
    })),
  ];
  await withTransaction(db, async (tx) => {
    await securityFindingsRepo(tx).saveResult({
      asset_id: asset.id,
      source: 'threat',
      company_id: asset.company_id,
      checked_at: now,
      grade: null,
      data: JSON.stringify(data),
    });
    await securityFindingsRepo(tx).record(asset, 'threat', findings, now);
  });
  return data;
}

/** Checks the lookalikes due; answers those registered now that were not at their previous check. */
async function checkLookalikes(
  db: DbScope,
  deps: ThreatRunDeps,
  companyId: string,
  domains: string[],
  now: number,
): Promise<{ checked: number; fresh: Array<{ candidate: string; domain: string; technique: string }> }> {
  const repo = threatRepo(db);
  await repo.dropLookalikesExcept(companyId, domains);
  for (const d of domains) await repo.addLookalikes(companyId, d, lookalikes(d));
  const due = await repo.dueLookalikes(companyId, deps.config.threat.lookalikeChecksPerRun);
  const gap = 1000 / deps.config.threat.lookalikeQueriesPerSecond;
  const sleep = deps.sleep ?? pause;
  const fresh: Array<{ candidate: string; domain: string; technique: string }> = [];
  let checked = 0;
  for (const [i, row] of due.entries()) {
    if (i > 0) await sleep(gap);
    const registered = await deps.dns.registered(row.candidate);
    if (registered === undefined) continue; // no answer: asked again next run
    checked++;
    const newly = registered && !row.registered;
    // The first check only learns the baseline; a change after it is news.
    if (newly && row.checked_at !== null) fresh.push({ candidate: row.candidate, domain: row.domain, technique: row.technique });
    await repo.markLookalike(companyId, row.candidate, registered, newly ? now : registered ? row.first_registered_at : null, now);
  }
  return { checked, fresh };
}

async function checkBreaches(
  db: DbScope,
  deps: ThreatRunDeps,
  company: { id: string; email: string; services: string },
  now: number,
): Promise<void> {
  const provider = deps.config.threat.breach;
  let wanted = false;
  try {
    wanted = (JSON.parse(company.services) as { data_breach?: unknown }).data_breach === true;
  } catch {
    wanted = false;
  }
  if (!provider || !wanted) return;
  const domain = company.email.split('@')[1]?.toLowerCase();
  if (!domain) return;
  const repo = threatRepo(db);
  const before = await repo.getBreach(company.id);
  if (before && before.domain === domain && Number(before.checked_at) > now - DAY_MS && before.error === null) return; // once a day
  try {
    const breaches = await lookupBreaches(provider, domain);
    await repo.saveBreach({ company_id: company.id, domain, checked_at: now, breaches: JSON.stringify(breaches), error: null });
  } catch (e) {
    if (!(e instanceof BreachLookupError)) throw e;
    await repo.saveBreach({ company_id: company.id, domain, checked_at: now, breaches: before?.breaches ?? '[]', error: e.message });
  }
}

export async function runCompanyThreatIntel(
  db: DbScope,
  deps: ThreatRunDeps,
  company: { id: string; email: string; services: string },
  now: number,
): Promise<CompanyRunSummary> {
  const assets = await securityAssetsRepo(db).listVerified(company.id);
  let listed = 0;
  for (const asset of assets) if ((await assessAsset(db, deps, asset, now)).reputation === 'listed') listed++;
  const domains = assets.filter((a) => a.kind === 'domain').map((a) => a.hostname);
  const { checked, fresh } = await checkLookalikes(db, deps, company.id, domains, now);
  if (fresh.length) {
    await withTransaction(db, async (tx) => {
      const names = fresh.map((f) => f.candidate);
      await notifyIn(tx, now)(company.id, {
        type: 'security_report',
        severity: 'high',
        title: fresh.length === 1 ? `Lookalike domain registered: ${names[0]}` : `${fresh.length} lookalike domains registered`,
        message: fresh.map((f) => `${f.candidate} (${f.technique} of ${f.domain})`).join(', '),
        details: 'Newly registered names that imitate your domains are often used for phishing. Check who holds them.',
        metadata: { source: 'threat', kind: 'lookalike', candidates: names },
        actionUrl: '/threat-intelligence',
        dedupeKey: `threat-lookalike:${names.join(',')}:${now}`,
      });
    });
  }
  await checkBreaches(db, deps, company, now);
  return { assets: assets.length, listed, lookalikesChecked: checked, newlyRegistered: fresh.map((f) => f.candidate) };
}
