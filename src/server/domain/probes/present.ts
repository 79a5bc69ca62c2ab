// The API views of probe locations, their probes and tokens (never a token's secret or hash).
import { compareVersions, isProbeOnline, LOCAL_LOCATION, PROBE_MIN_VERSION } from '../../../lib/probe-locations.ts';
import type { ProbeLocationRow, ProbeTokenRow } from '../../db/repositories/probe-locations-repo.ts';
import type { ProbeRow } from '../../db/repositories/probes-repo.ts';
import { toIso, toIsoOrNull } from '../ids.ts';

export interface ProbeLocationView {
  id: string;
  slug: string;
  name: string;
  private: boolean;
  builtin: boolean;
  company: { id: string; name: string } | null;
  created_at: string | null;
  probes_total: number;
  probes_online: number;
  /** every probe silent past PROBE_OFFLINE_SECONDS: when the last was heard (jobs/probe-health.ts) */
  offline_since: string | null;
  /** the per-location canary flags it: its checks all fail while others see the monitors up */
  flagged_since: string | null;
  /** the caller may mint and revoke this location's tokens */
  can_manage_tokens: boolean;
  /** the caller may delete this location */
  can_delete: boolean;
  /** browser monitors may name it (a probe with Chromium seen within a day; always for local) */
  browser_checks: boolean;
}

export interface ProbeView {
  id: string;
  instance: string;
  version: string;
  online: boolean;
  upgrade: boolean;
  first_seen_at: string;
  last_seen_at: string;
  checks_per_second: number | null;
  lag_ms: number | null;
  capabilities: string[];
}

export interface ProbeTokenView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

export interface Rights {
  canManageTokens: boolean;
  canDelete: boolean;
}

export function locationView(
  row: ProbeLocationRow & { company_name: string | null },
  counts: { total: number; online: number },
  rights: Rights,
  browserChecks: boolean,
): ProbeLocationView {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    private: row.company_id !== null,
    builtin: false,
    company: row.company_id === null ? null : { id: row.company_id, name: row.company_name ?? '' },
    created_at: toIso(row.created_at),
    probes_total: counts.total,
    probes_online: counts.online,
    offline_since: toIsoOrNull(row.offline_since),
    flagged_since: toIsoOrNull(row.flagged_since),
    can_manage_tokens: rights.canManageTokens,
    can_delete: rights.canDelete,
    browser_checks: browserChecks,
  };
}

/**
 * The built-in engine as a location: it has no row (every install has it, nobody creates or
 * deletes it) and no probes or tokens, since it runs inside the platform's own process.
 */
export function localLocationView(): ProbeLocationView {
  return {
    id: LOCAL_LOCATION.id,
    slug: LOCAL_LOCATION.slug,
    name: LOCAL_LOCATION.name,
    private: false,
    builtin: true,
    company: null,
    created_at: null,
    probes_total: 0,
    probes_online: 0,
    offline_since: null,
    flagged_since: null,
    can_manage_tokens: false,
    can_delete: false,
    browser_checks: true,
  };
}

export function probeView(row: ProbeRow, now: number): ProbeView {
  return {
    id: row.id,
    instance: row.instance,
    version: row.version,
    online: isProbeOnline(row.last_seen_at, now),
    upgrade: compareVersions(row.version, PROBE_MIN_VERSION) < 0,
    first_seen_at: toIso(row.first_seen_at),
    last_seen_at: toIso(row.last_seen_at),
    checks_per_second: row.checks_per_second,
    lag_ms: row.lag_ms,
    capabilities: row.capabilities ? row.capabilities.split(',') : [],
  };
}

export function tokenView(row: ProbeTokenRow): ProbeTokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.token_prefix,
    created_at: toIso(row.created_at),
    last_used_at: toIsoOrNull(row.last_used_at),
  };
}
