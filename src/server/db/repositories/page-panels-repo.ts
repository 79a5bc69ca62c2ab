// SQL of the status page's panels (issue 32): the rollups its response-time charts draw (the
// monitor's own hourly and daily rows, and each location's hourly rows), the names of the
// locations, the company's security panel switch, and its verified assets with their latest
// TLS and domain-check results. Every statement names the company.
import type { DbScope } from '../scope.ts';
import { rollupsWithMonitors, toRecord, type RollupGrain, type RollupRecord } from './rollups-repo.ts';
import type { LocationRollupRecord } from './location-rollups-repo.ts';

export interface PanelAssetRow {
  id: string;
  hostname: string;
  kind: string;
}

export interface PanelResultRow {
  asset_id: string;
  source: string;
  checked_at: number;
  grade: string | null;
  data: string;
}

const STORED = [
  'm.id as monitor_id',
  'm.company_id',
  'r.checks',
  'r.failures',
  'r.degraded',
  'r.maintenance',
  'r.last_http_code',
  'r.data',
] as const;

export function pagePanelsRepo(db: DbScope) {
  const k = db.k;
  return {
    /** The rollups of these monitors of the company with from <= start < to. */
    async rollups(grain: RollupGrain, companyId: string, monitorIds: string[], from: number, to: number): Promise<RollupRecord[]> {
      if (monitorIds.length === 0) return [];
      const start = grain === 'hourly' ? 'r.hour_start' : ('r.day_start' as 'r.hour_start');
      const rows = await rollupsWithMonitors(db, grain)
        .select([...STORED, `${start} as start`])
        .where('m.company_id', '=', companyId)
        .where('m.id', 'in', monitorIds)
        .where(start, '>=', from)
        .where(start, '<', to)
        .execute();
      return rows.map(toRecord);
    },

    /** Each location's hourly rollups of these monitors of the company with from <= hour_start < to. */
    async locationRollups(companyId: string, monitorIds: string[], from: number, to: number): Promise<LocationRollupRecord[]> {
      if (monitorIds.length === 0) return [];
      const rows = await k
        .selectFrom('monitor_location_rollups_hourly as r')
        .innerJoin('monitors as m', 'm.num', 'r.monitor_num')
        .select([...STORED, 'r.location', 'r.hour_start as start'])
        .where('m.company_id', '=', companyId)
        .where('m.id', 'in', monitorIds)
        .where('r.hour_start', '>=', from)
        .where('r.hour_start', '<', to)
        .execute();
      return rows.map((row) => ({ ...toRecord(row), location: Number(row.location) }));
    },

    /** Public names of locations by number (a company's own private location is named only to it). */
    async locationNames(companyId: string, nums: number[]): Promise<Map<number, string>> {
      if (nums.length === 0) return new Map();
      const rows = await k
        .selectFrom('probe_locations')
        .select(['num', 'name'])
        .where('num', 'in', nums)
        .where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)]))
        .execute();
      return new Map(rows.map((r) => [Number(r.num), r.name]));
    },

    async securityPanelOn(companyId: string): Promise<boolean> {
      const row = await k.selectFrom('companies').select('public_security_panel').where('id', '=', companyId).executeTakeFirst();
      return row?.public_security_panel === true;
    },

    /** Turns the panel on or off; the company row is stamped, which changes its page's fingerprint. */
    async setSecurityPanel(companyId: string, on: boolean, now: number): Promise<void> {
      await k.updateTable('companies').set({ public_security_panel: on, updated_at: now }).where('id', '=', companyId).execute();
    },

    /**
     * The company's assets whose proof of control stands: verified, and not waiting for a renewed
     * proof (the name points elsewhere than the proof vouches for). In host name order.
     */
    verifiedAssets(companyId: string): Promise<PanelAssetRow[]> {
      return k
        .selectFrom('security_assets')
        .select(['id', 'hostname', 'kind'])
        .where('company_id', '=', companyId)
        .where('verified_at', 'is not', null)
        .where('renewal_reason', 'is', null)
        .orderBy('hostname')
        .orderBy('id')
        .execute();
    },

    /** The latest TLS and domain-check results of these assets of the company. */
    latestResults(companyId: string, assetIds: string[]): Promise<PanelResultRow[]> {
      if (assetIds.length === 0) return Promise.resolve([]);
      return k
        .selectFrom('security_results')
        .select(['asset_id', 'source', 'checked_at', 'grade', 'data'])
        .where('company_id', '=', companyId)
        .where('asset_id', 'in', assetIds)
        .where('source', 'in', ['ssl', 'dns'])
        .execute();
    },
  };
}
