// Which hosts the TLS analysis looks at: every verified host asset of a company (only verified:
// the platform is no free scanner), and every live monitor that talks TLS (the company's own
// declared target, already checked by the engine; its kind names the endpoint) whose host no
// verified asset of the company covers.
import { DEFAULT_SSL_PORT } from '../../../lib/monitor-kinds.ts';
import type { DbScope } from '../../db/scope.ts';
import { securityAssetsRepo } from '../../db/repositories/security-assets-repo.ts';
import { tlsAnalysesRepo, type TlsMonitorCandidate } from '../../db/repositories/tls-analyses-repo.ts';
import { parseConfig } from '../../engine/kinds/config.ts';
import { KINDS, TLS_KINDS, type TlsEndpoint } from '../../engine/kinds/index.ts';

export interface TlsTarget {
  kind: 'asset' | 'monitor';
  /** The asset's or the monitor's id */
  id: string;
  company_id: string;
  name: string;
  host: string;
  port: number;
  /** Expiry warning thresholds (an ssl monitor's own; the default otherwise) */
  thresholds?: number[];
}

/** host and port of a monitor that talks TLS, else null: its kind says (engine/kinds/<kind>.ts `tlsEndpoint`). */
function monitorEndpoint(m: TlsMonitorCandidate): TlsEndpoint | null {
  return KINDS[m.type]?.tlsEndpoint?.(parseConfig(m.config)) ?? null;
}

/** The TLS targets of a company (every company's for `null`), assets first. */
export async function tlsTargets(db: DbScope, companyId: string | null): Promise<TlsTarget[]> {
  const assets = (await securityAssetsRepo(db).listVerified(companyId ?? undefined)).filter((a) => a.kind === 'host');
  const covered = new Set(assets.map((a) => `${a.company_id}:${a.hostname}`));
  const out: TlsTarget[] = assets.map((a) => ({
    kind: 'asset',
    id: a.id,
    company_id: a.company_id,
    name: a.hostname,
    host: a.hostname,
    port: DEFAULT_SSL_PORT,
  }));
  for (const m of await tlsAnalysesRepo(db).listCandidates(companyId, TLS_KINDS)) {
    const endpoint = monitorEndpoint(m);
    if (!endpoint || covered.has(`${m.company_id}:${endpoint.host}`)) continue;
    out.push({ kind: 'monitor', id: m.id, company_id: m.company_id, name: m.name, ...endpoint });
  }
  return out;
}

/** One target of a company by its asset or monitor id (undefined: none, or not a TLS target). */
export async function tlsTarget(db: DbScope, companyId: string | null, id: string): Promise<TlsTarget | undefined> {
  return (await tlsTargets(db, companyId)).find((t) => t.id === id);
}
