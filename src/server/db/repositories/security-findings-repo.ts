// SQL for what the security analyses found: the latest result per asset and analysis, and the
// findings with their life (first and last seen, open → fixed when a later run no longer sees
// them, accepted by an admin with a reason).
import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { FindingSeverity, FindingStatus, SecurityFindingsTable, SecurityResultsTable, SecuritySource } from '../schema/security.ts';

export type SecurityFindingRow = Selectable<SecurityFindingsTable>;
export type SecurityResultRow = Selectable<SecurityResultsTable>;

/** One problem an analysis saw in this run. */
export interface FindingInput {
  key: string;
  severity: FindingSeverity;
  cvss?: number | null;
  title: string;
  evidence: string;
}

/** What a run changed: problems seen for the first time (or again after a fix), and ones gone. */
export interface FindingsChange {
  opened: SecurityFindingRow[];
  fixed: SecurityFindingRow[];
}

export interface FindingFilter {
  companyId: string | null;
  assetId?: string;
  source?: SecuritySource;
  status?: FindingStatus;
}

export function securityFindingsRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Replaces the latest result of one analysis of one asset. */
    async saveResult(row: SecurityResultsTable): Promise<void> {
      await k
        .insertInto('security_results')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['asset_id', 'source']).doUpdateSet({ checked_at: row.checked_at, grade: row.grade, data: row.data }),
        )
        .execute();
    },
    /** The latest result of one analysis of one asset. */
    getResult(assetId: string, source: SecuritySource): Promise<SecurityResultRow | undefined> {
      return k.selectFrom('security_results').selectAll().where('asset_id', '=', assetId).where('source', '=', source).executeTakeFirst();
    },
    /** The latest results of a company's assets (every company's for `null`), optionally of one analysis. */
    listResults(companyId: string | null, source?: SecuritySource): Promise<SecurityResultRow[]> {
      let q = k.selectFrom('security_results').selectAll();
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      if (source !== undefined) q = q.where('source', '=', source);
      return q.orderBy('asset_id').execute();
    },
    /**
     * Records one run of `source` on an asset: each finding seen is opened or kept open (an
     * accepted one stays accepted), its evidence and last-seen time updated; open findings of
     * this source the run did not see are marked fixed. Call inside the run's transaction.
     */
    async record(
      asset: { id: string; company_id: string },
      source: SecuritySource,
      seen: FindingInput[],
      at: number,
    ): Promise<FindingsChange> {
      const existing = await k
        .selectFrom('security_findings')
        .selectAll()
        .where('asset_id', '=', asset.id)
        .where('source', '=', source)
        .execute();
      const byKey = new Map(existing.map((f) => [f.key, f]));
      const change: FindingsChange = { opened: [], fixed: [] };
      const seenKeys = new Set<string>();
      for (const f of seen) {
        if (seenKeys.has(f.key)) continue;
        seenKeys.add(f.key);
        const before = byKey.get(f.key);
        const common = { severity: f.severity, cvss: f.cvss ?? null, title: f.title.slice(0, 300), evidence: f.evidence, last_seen_at: at };
        if (!before) {
          const row: SecurityFindingRow = {
            id: randomUUID(),
            company_id: asset.company_id,
            asset_id: asset.id,
            source,
            key: f.key,
            ...common,
            first_seen_at: at,
            status: 'open',
            status_reason: null,
            status_changed_at: at,
          };
          await k.insertInto('security_findings').values(row).execute();
          change.opened.push(row);
        } else if (before.status === 'fixed') {
          const row = { ...before, ...common, status: 'open' as const, status_reason: null, status_changed_at: at };
          await k.updateTable('security_findings').set(row).where('id', '=', before.id).execute();
          change.opened.push(row);
        } else {
          await k.updateTable('security_findings').set(common).where('id', '=', before.id).execute();
        }
      }
      for (const f of existing) {
        if (f.status !== 'open' || seenKeys.has(f.key)) continue;
        await k.updateTable('security_findings').set({ status: 'fixed', status_changed_at: at }).where('id', '=', f.id).execute();
        change.fixed.push({ ...f, status: 'fixed', status_changed_at: at });
      }
      return change;
    },
    list(filter: FindingFilter): Promise<SecurityFindingRow[]> {
      let q = k.selectFrom('security_findings').selectAll();
      if (filter.companyId !== null) q = q.where('company_id', '=', filter.companyId);
      if (filter.assetId !== undefined) q = q.where('asset_id', '=', filter.assetId);
      if (filter.source !== undefined) q = q.where('source', '=', filter.source);
      if (filter.status !== undefined) q = q.where('status', '=', filter.status);
      return q.orderBy('first_seen_at', 'desc').orderBy('id').execute();
    },
    get(companyId: string | null, id: string): Promise<SecurityFindingRow | undefined> {
      let q = k.selectFrom('security_findings').selectAll().where('id', '=', id);
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      return q.executeTakeFirst();
    },
    /** An admin accepts a risk (with a reason) or reopens it. */
    async setStatus(id: string, status: 'open' | 'accepted', reason: string | null, at: number): Promise<void> {
      await k.updateTable('security_findings').set({ status, status_reason: reason, status_changed_at: at }).where('id', '=', id).execute();
    },
  };
}
