// Assets and findings as the API shows them. An asset carries what the /security overview draws
// in its row: the proof to publish, and the latest result of each analysis (their `data` shapes
// are the contract of PREAMBLE/docs: ssl grade and cert_expires_at, dns registration_expires_at,
// threat reputation, scan finished_at), each shown only while its feature flag is on.
import { proofInstructions } from '../../../lib/security-assets.ts';
import type { SecurityAssetRow } from '../../db/repositories/security-assets-repo.ts';
import type { SecurityFindingRow, SecurityResultRow } from '../../db/repositories/security-findings-repo.ts';
import type { SecuritySource } from '../../db/schema/security.ts';
import { parseBound } from '../../security/assets/bound-addresses.ts';
import { toIso, toIsoOrNull } from '../ids.ts';

/** Which analyses are on (their feature flags). */
export type Sections = Record<SecuritySource, boolean>;

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
type SeverityCounts = Record<(typeof SEVERITIES)[number], number>;

function parse(data: string | undefined): Record<string, unknown> {
  if (!data) return {};
  try {
    const v = JSON.parse(data) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v.slice(0, 200) : null);

export function presentAsset(a: SecurityAssetRow, results: SecurityResultRow[], openFindings: SecurityFindingRow[], sections: Sections) {
  const of = (source: SecuritySource) => (sections[source] ? results.find((r) => r.asset_id === a.id && r.source === source) : undefined);
  const ssl = of('ssl');
  const dns = of('dns');
  const threat = of('threat');
  const scan = of('scan');
  const sslData = parse(ssl?.data);
  const dnsData = parse(dns?.data);
  const threatData = parse(threat?.data);
  const scanData = parse(scan?.data);
  const counts: SeverityCounts = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
  for (const f of openFindings) if (f.asset_id === a.id && sections[f.source]) counts[f.severity] += 1;
  const reputation = str(threatData.reputation);
  return {
    id: a.id,
    company_id: a.company_id,
    hostname: a.hostname,
    kind: a.kind,
    verified: a.verified_at !== null,
    verified_at: toIsoOrNull(a.verified_at),
    verification_method: a.verification_method,
    last_verification_at: toIsoOrNull(a.last_verification_at),
    last_verification_error: a.last_verification_error,
    verification_state: a.verified_at === null ? 'unverified' : a.renewal_reason !== null ? 'renewal_needed' : 'verified',
    verified_addresses: a.verified_at === null ? null : parseBound(a.verified_addresses),
    renewal_reason: a.verified_at === null ? null : a.renewal_reason,
    renewal_needed_at: a.verified_at === null ? null : toIsoOrNull(a.renewal_needed_at),
    proof: proofInstructions(a.hostname, a.verification_token),
    created_at: toIso(a.created_at),
    summary: {
      grade: ssl?.grade ?? null,
      cert_expires_at: toIsoOrNull(num(sslData.cert_expires_at)),
      cert_issuer: str(sslData.issuer),
      registration_expires_at: toIsoOrNull(num(dnsData.registration_expires_at)),
      registrar: str(dnsData.registrar),
      reputation: reputation === 'clean' || reputation === 'listed' || reputation === 'unknown' ? reputation : null,
      listings: Array.isArray(threatData.listings)
        ? threatData.listings.filter((l): l is string => typeof l === 'string').slice(0, 20)
        : [],
      last_scan_at: toIsoOrNull(num(scanData.finished_at) ?? scan?.checked_at ?? null),
      open_findings: counts,
    },
  };
}

export function presentFinding(f: SecurityFindingRow, hostname: string) {
  return {
    id: f.id,
    company_id: f.company_id,
    asset_id: f.asset_id,
    hostname,
    source: f.source,
    key: f.key,
    severity: f.severity,
    cvss: f.cvss,
    title: f.title,
    evidence: f.evidence.slice(0, 4000),
    first_seen_at: toIso(f.first_seen_at),
    last_seen_at: toIso(f.last_seen_at),
    status: f.status,
    status_reason: f.status_reason,
    status_changed_at: toIsoOrNull(f.status_changed_at),
  };
}
