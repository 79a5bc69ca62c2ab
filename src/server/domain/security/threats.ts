// The threat-intelligence view (GET /api/v1/security/threats): each verified asset's reputation
// (blocklist listings of its latest run, feed matches looked up now, so a fresh import shows at
// once), the hosts its services called that a feed lists, its lookalike domains that are
// registered, and the breach lookup of its e-mail domain. Only for companies with
// threat_feed_enabled, while ENABLE_THREAT_INTELLIGENCE is on; viewing is audited.
import type { Ctx } from '../context.ts';
import { companyScope, requirePermission } from '../authz.ts';
import { DomainError, notFound } from '../errors.ts';
import { flagOn } from '../flags/flags.ts';
import { auditFromCtx } from '../audit/record.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { parseServices } from '../company/present.ts';
import { securityAssetsRepo } from '../../db/repositories/security-assets-repo.ts';
import { securityFindingsRepo } from '../../db/repositories/security-findings-repo.ts';
import { spanPeersRepo } from '../../db/repositories/span-peers-repo.ts';
import { threatRepo } from '../../db/repositories/threat-repo.ts';
import type { DbScope } from '../../db/scope.ts';
import { matchFeeds, type FeedMatch } from '../../security/threat/match.ts';
import type { BlocklistListing } from '../../security/threat/dnsbl.ts';
import type { Breach } from '../../security/threat/breach.ts';
import { listingLines, type Reputation, type ThreatResultData } from '../../security/threat/run.ts';
import { DAY_MS } from '../../../lib/timeline.ts';

/** Peers called within this window are matched */
const PEER_WINDOW_MS = 7 * DAY_MS;
const MAX_PEERS = 5000;
const MAX_LOOKALIKES = 200;

export interface AssetThreat {
  id: string;
  company_id: string;
  hostname: string;
  kind: 'domain' | 'host';
  checked_at: number | null;
  reputation: Reputation;
  listings: string[];
  addresses: string[];
  blocklists: BlocklistListing[];
  feed_matches: FeedMatch[];
}

export interface TraceMatch {
  company_id: string;
  service: string;
  host: string;
  indicator: string;
  feed: string;
  threat: string;
  tags: string;
  last_seen_at: number;
}

export interface ThreatOverview {
  enabled: boolean;
  blocklists: Array<{ zone: string; type: 'ip' | 'domain' }>;
  feeds: Array<{
    name: string;
    format: string;
    threat: string;
    indicators: number;
    imported_at: number | null;
    attempted_at: number | null;
    error: string | null;
  }>;
  assets: AssetThreat[];
  trace_matches: TraceMatch[];
  lookalikes: {
    candidates: number;
    checked: number;
    registered: Array<{
      company_id: string;
      domain: string;
      candidate: string;
      technique: string;
      first_registered_at: number | null;
      checked_at: number | null;
    }>;
  };
  /** null in the all-companies view */
  breach: {
    status: 'not_configured' | 'disabled' | 'pending' | 'checked' | 'error';
    domain: string | null;
    checked_at: number | null;
    breaches: Breach[];
    error: string | null;
  } | null;
}

/** What the run stored merged with feed matches looked up now. */
async function assetThreats(db: DbScope, companyIds: string[]): Promise<AssetThreat[]> {
  const assets = (await Promise.all(companyIds.map((id) => securityAssetsRepo(db).listVerified(id)))).flat();
  const results = new Map<string, { checked_at: number; data: ThreatResultData }>();
  for (const id of companyIds) {
    for (const r of await securityFindingsRepo(db).listResults(id, 'threat'))
      results.set(r.asset_id, { checked_at: Number(r.checked_at), data: JSON.parse(r.data) as ThreatResultData });
  }
  const subjects = assets.flatMap((a) => [a.hostname, ...(results.get(a.id)?.data.addresses ?? [])]);
  const matched = await matchFeeds(db, subjects);
  return assets.map((a) => {
    const stored = results.get(a.id);
    const addresses = stored?.data.addresses ?? [];
    const blocklists = stored?.data.blocklists ?? [];
    const feed_matches = [a.hostname, ...addresses].flatMap((s) => matched.get(s) ?? []);
    const listings = listingLines(blocklists, feed_matches);
    let reputation: Reputation = stored?.data.reputation ?? 'unknown';
    if (listings.length) reputation = 'listed';
    else if (reputation === 'listed') reputation = 'clean'; // listed by a feed that no longer lists it
    return {
      id: a.id,
      company_id: a.company_id,
      hostname: a.hostname,
      kind: a.kind,
      checked_at: stored?.checked_at ?? null,
      reputation,
      listings,
      addresses,
      blocklists,
      feed_matches,
    };
  });
}

async function traceMatches(db: DbScope, companyId: string | null, now: number): Promise<TraceMatch[]> {
  const peers = await spanPeersRepo(db).recent(companyId, now - PEER_WINDOW_MS, MAX_PEERS);
  const matched = await matchFeeds(
    db,
    peers.map((p) => p.host),
  );
  return peers.flatMap((p) =>
    (matched.get(p.host) ?? []).map((m) => ({
      company_id: p.company_id,
      service: p.service,
      host: p.host,
      indicator: m.indicator,
      feed: m.feed,
      threat: m.threat,
      tags: m.tags,
      last_seen_at: Number(p.last_seen_at),
    })),
  );
}

export async function getThreats(ctx: Ctx, input: { tenant?: string }): Promise<ThreatOverview> {
  requirePermission(ctx, 'view', 'threat_intelligence');
  const { services } = ctx;
  if (!(await flagOn(services, 'ENABLE_THREAT_INTELLIGENCE'))) throw new DomainError('not_found', 'Threat intelligence is not available.');
  const companyId = companyScope(ctx, input.tenant);
  const db = services.db;
  const threat = services.config.threat;
  const repo = threatRepo(db);
  const enabledIds = (await repo.enabledCompanies()).map((c) => c.id);
  const company = companyId ? await companiesRepo(db).findById(companyId) : undefined;
  if (companyId && !company) throw notFound('Company');
  const enabled = company ? company.threat_feed_enabled && company.is_active : enabledIds.length > 0;
  const feedState = new Map((await repo.listFeeds()).map((f) => [f.name, f]));
  const overview: ThreatOverview = {
    enabled,
    blocklists: threat.blocklists.map((b) => ({ zone: b.zone, type: b.type })),
    feeds: threat.feeds.map((f) => {
      const s = feedState.get(f.name);
      return {
        name: f.name,
        format: f.format,
        threat: f.threat,
        indicators: s?.indicators ?? 0,
        imported_at: s?.imported_at == null ? null : Number(s.imported_at),
        attempted_at: s ? Number(s.attempted_at) : null,
        error: s?.error ?? null,
      };
    }),
    assets: [],
    trace_matches: [],
    lookalikes: { candidates: 0, checked: 0, registered: [] },
    breach: null,
  };
  await auditFromCtx(db, ctx, 'threat_intel_view', { tenant: companyId }, undefined, companyId);
  if (!enabled) return overview; // a company without threat intelligence sees nothing of it
  const ids = companyId ? [companyId] : enabledIds;
  overview.assets = await assetThreats(db, ids);
  overview.trace_matches = (await traceMatches(db, companyId, services.now())).filter((m) => ids.includes(m.company_id));
  const counts = await repo.countLookalikes(companyId);
  overview.lookalikes = {
    candidates: counts.total,
    checked: counts.checked,
    registered: (await repo.listLookalikes(companyId, MAX_LOOKALIKES))
      .filter((l) => l.registered)
      .map((l) => ({
        company_id: l.company_id,
        domain: l.domain,
        candidate: l.candidate,
        technique: l.technique,
        first_registered_at: l.first_registered_at == null ? null : Number(l.first_registered_at),
        checked_at: l.checked_at == null ? null : Number(l.checked_at),
      })),
  };
  if (company) {
    const domain = company.email.split('@')[1]?.toLowerCase() ?? null;
    const wanted = parseServices(company.services).data_breach;
    const stored = await repo.getBreach(company.id);
    overview.breach = !threat.breach
      ? { status: 'not_configured', domain, checked_at: null, breaches: [], error: null }
      : !wanted
        ? { status: 'disabled', domain, checked_at: null, breaches: [], error: null }
        : !stored
          ? { status: 'pending', domain, checked_at: null, breaches: [], error: null }
          : {
              status: stored.error ? 'error' : 'checked',
              domain: stored.domain,
              checked_at: Number(stored.checked_at),
              breaches: JSON.parse(stored.breaches) as Breach[],
              error: stored.error,
            };
  }
  return overview;
}
