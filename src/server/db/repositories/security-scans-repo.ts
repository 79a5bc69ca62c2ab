// SQL for vulnerability scan runs: queueing (one queued or running scan per asset, refused by
// the unique partial index of migration 0630), claiming a queued scan (or one whose runner's
// lease ran out), finishing it, and the lists the console reads.
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { ScanState, ScanTrigger, SecurityScansTable } from '../schema/security-scans.ts';

export type SecurityScanRow = Selectable<SecurityScansTable>;

export interface ScanCounts {
  critical: number;
  high: number;
  medium: number;
  low: number;
  info: number;
}

export interface ScanFilter {
  companyId: string | null;
  assetId?: string;
  state?: ScanState;
  trigger?: ScanTrigger;
  limit: number;
}

export function securityScansRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Queues a scan; throws a unique violation when the asset already has one queued or running. */
    async queue(row: { id: string; company_id: string; asset_id: string; trigger: ScanTrigger; requested_by: string | null; at: number }) {
      const scan: SecurityScanRow = {
        id: row.id,
        company_id: row.company_id,
        asset_id: row.asset_id,
        trigger: row.trigger,
        requested_by: row.requested_by,
        state: 'queued',
        queued_at: row.at,
        started_at: null,
        finished_at: null,
        lease_expires_at: null,
        critical: 0,
        high: 0,
        medium: 0,
        low: 0,
        info: 0,
        new_findings: 0,
        error: null,
      };
      await k.insertInto('security_scans').values(scan).execute();
      return scan;
    },
    get(companyId: string | null, id: string): Promise<SecurityScanRow | undefined> {
      let q = k.selectFrom('security_scans').selectAll().where('id', '=', id);
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      return q.executeTakeFirst();
    },
    /** The scan queued or running on an asset, if any. */
    active(assetId: string): Promise<SecurityScanRow | undefined> {
      return k
        .selectFrom('security_scans')
        .selectAll()
        .where('asset_id', '=', assetId)
        .where('state', 'in', ['queued', 'running'])
        .executeTakeFirst();
    },
    list(f: ScanFilter): Promise<SecurityScanRow[]> {
      let q = k.selectFrom('security_scans').selectAll();
      if (f.companyId !== null) q = q.where('company_id', '=', f.companyId);
      if (f.assetId !== undefined) q = q.where('asset_id', '=', f.assetId);
      if (f.state !== undefined) q = q.where('state', '=', f.state);
      if (f.trigger !== undefined) q = q.where('trigger', '=', f.trigger);
      return q.orderBy('queued_at', 'desc').orderBy('id').limit(f.limit).execute();
    },
    /** Each asset's latest scan (by queue time), of one company or of all for `null`. */
    async latestByAsset(companyId: string | null): Promise<Map<string, SecurityScanRow>> {
      let q = k
        .selectFrom('security_scans as s')
        .selectAll('s')
        .where('s.queued_at', '=', (eb) =>
          eb
            .selectFrom('security_scans as l')
            .select((x) => x.fn.max('l.queued_at').as('m'))
            .whereRef('l.asset_id', '=', 's.asset_id'),
        );
      if (companyId !== null) q = q.where('s.company_id', '=', companyId);
      const out = new Map<string, SecurityScanRow>();
      for (const row of await q.orderBy('s.id').execute()) if (!out.has(row.asset_id)) out.set(row.asset_id, row);
      return out;
    },
    /** Scans to run: queued ones oldest first, and running ones whose runner's lease has passed. */
    runnable(now: number, limit: number): Promise<SecurityScanRow[]> {
      return k
        .selectFrom('security_scans')
        .selectAll()
        .where((eb) => eb.or([eb('state', '=', 'queued'), eb.and([eb('state', '=', 'running'), eb('lease_expires_at', '<', now)])]))
        .orderBy('queued_at')
        .limit(limit)
        .execute();
    },
    /** Takes a scan for this runner; false when another runner took it first. */
    async claim(scan: SecurityScanRow, now: number, leaseMs: number): Promise<boolean> {
      const r = await k
        .updateTable('security_scans')
        .set({ state: 'running', started_at: now, lease_expires_at: now + leaseMs })
        .where('id', '=', scan.id)
        .where('state', '=', scan.state)
        .where((eb) =>
          scan.lease_expires_at === null ? eb('lease_expires_at', 'is', null) : eb('lease_expires_at', '=', scan.lease_expires_at),
        )
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async finish(id: string, at: number, counts: ScanCounts, newFindings: number): Promise<void> {
      await k
        .updateTable('security_scans')
        .set({ state: 'done', finished_at: at, lease_expires_at: null, ...counts, new_findings: newFindings })
        .where('id', '=', id)
        .execute();
    },
    async fail(id: string, at: number, error: string): Promise<void> {
      await k
        .updateTable('security_scans')
        .set({ state: 'failed', finished_at: at, lease_expires_at: null, error: error.slice(0, 500) })
        .where('id', '=', id)
        .execute();
    },
    /** When each asset's latest scan was queued (the weekly schedule reads it). */
    async lastQueuedByAsset(): Promise<Map<string, number>> {
      const rows = await k
        .selectFrom('security_scans')
        .select(['asset_id', (eb) => eb.fn.max('queued_at').as('last')])
        .groupBy('asset_id')
        .execute();
      return new Map(rows.map((r) => [r.asset_id, Number(r.last)]));
    },
  };
}
