// SQL for the hosts a company's services call, kept at span ingest (telemetry/peer-hosts.ts):
// threat matching reads these few rows instead of parsing the attributes of every client span.
import { sql, type Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { SpanPeersTable } from '../schema/threat.ts';

export type SpanPeerRow = Selectable<SpanPeersTable>;

export function spanPeersRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Records calls seen at `seen_at`; each (company, host, service) at most once per call. */
    async touch(rows: Array<{ company_id: string; host: string; service: string; seen_at: number }>): Promise<void> {
      if (rows.length === 0) return;
      await k
        .insertInto('span_peers')
        .values(
          rows.map((r) => ({
            company_id: r.company_id,
            host: r.host,
            service: r.service,
            first_seen_at: r.seen_at,
            last_seen_at: r.seen_at,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['company_id', 'host', 'service']).doUpdateSet({
            last_seen_at: sql`case when excluded.last_seen_at > span_peers.last_seen_at then excluded.last_seen_at else span_peers.last_seen_at end`,
          }),
        )
        .execute();
    },
    /** A company's peers seen since `since` (every company's for `null`), newest first. */
    recent(companyId: string | null, since: number, limit: number): Promise<SpanPeerRow[]> {
      let q = k.selectFrom('span_peers').selectAll().where('last_seen_at', '>=', since);
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      return q.orderBy('last_seen_at', 'desc').orderBy('host').limit(limit).execute();
    },
    async prune(before: number): Promise<void> {
      await k.deleteFrom('span_peers').where('last_seen_at', '<', before).execute();
    },
  };
}
