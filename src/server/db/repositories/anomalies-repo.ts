// SQL for anomaly watching (migration 0133): each company's tuning, the episodes found, and the
// few reads the anomaly job makes of what is stored already (monitor and endpoint hourly
// rollups, client and server spans of a recent window). Every query is filtered by company.
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { AnomalyEpisodesTable, AnomalyKind, AnomalySettingsTable } from '../schema/anomalies.ts';
import type { CheckStatus } from '../schema/monitoring.ts';

export type AnomalySettingsRow = Selectable<AnomalySettingsTable>;
export type AnomalyEpisodeRow = Selectable<AnomalyEpisodesTable>;

export interface WatchedMonitor {
  id: string;
  company_id: string;
  name: string;
  status: CheckStatus;
  status_since: number | null;
  destination_host: string | null;
}

export interface EndpointHour {
  service: string;
  method: string;
  route: string;
  start: number;
  requests: number;
  hist: string;
}

export interface WindowSpan {
  kind: number;
  service: string;
  is_error: boolean;
  http_status: number | null;
  error_message: string | null;
  attributes: string;
}

export function anomaliesRepo(db: DbScope) {
  const k = db.k;
  return {
    settings(companyId: string): Promise<AnomalySettingsRow | undefined> {
      return k.selectFrom('anomaly_settings').selectAll().where('company_id', '=', companyId).executeTakeFirst();
    },
    async putSettings(row: AnomalySettingsRow): Promise<void> {
      await k
        .insertInto('anomaly_settings')
        .values(row)
        .onConflict((oc) =>
          oc
            .column('company_id')
            .doUpdateSet({ latency: row.latency, divergence: row.divergence, updated_at: row.updated_at, updated_by: row.updated_by }),
        )
        .execute();
    },
    /** Active companies with their tuning (null: the defaults). */
    async companies(): Promise<Array<{ id: string; latency: string | null; divergence: string | null }>> {
      return k
        .selectFrom('companies as c')
        .leftJoin('anomaly_settings as s', 's.company_id', 'c.id')
        .select(['c.id', 's.latency', 's.divergence'])
        .where('c.is_active', '=', true)
        .orderBy('c.id')
        .execute();
    },
    /** Monitors being checked (not paused, not archived). */
    monitors(companyId: string): Promise<WatchedMonitor[]> {
      return k
        .selectFrom('monitors')
        .select(['id', 'company_id', 'name', 'status', 'status_since', 'destination_host'])
        .where('company_id', '=', companyId)
        .where('is_paused', '=', false)
        .where('archived_at', 'is', null)
        .orderBy('id')
        .execute() as Promise<WatchedMonitor[]>;
    },
    /** Location numbers to their names (public and the company's own). */
    async locationNames(companyId: string): Promise<Map<number, string>> {
      const rows = await k
        .selectFrom('probe_locations')
        .select(['num', 'name'])
        .where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)]))
        .execute();
      return new Map(rows.map((r) => [Number(r.num), r.name]));
    },
    /** A company's endpoint hours in [from, to), only of endpoints requested since `activeSince`, at most `limit` endpoints. */
    async endpointHours(companyId: string, from: number, to: number, activeSince: number, limit: number): Promise<EndpointHour[]> {
      const active = await k
        .selectFrom('endpoint_rollups_hourly')
        .select(['service', 'method', 'route'])
        .select((eb) => eb.fn.sum<number>('requests').as('n'))
        .where('company_id', '=', companyId)
        .where('minute_ms', '>=', activeSince)
        .groupBy(['service', 'method', 'route'])
        .orderBy('n', 'desc')
        .limit(limit)
        .execute();
      if (active.length === 0) return [];
      const rows = await k
        .selectFrom('endpoint_rollups_hourly')
        .select(['service', 'method', 'route', 'minute_ms', 'requests', 'hist'])
        .where('company_id', '=', companyId)
        .where('minute_ms', '>=', from)
        .where('minute_ms', '<', to)
        .where('service', 'in', [...new Set(active.map((a) => a.service))])
        .execute();
      const wanted = new Set(active.map((a) => `${a.service}\n${a.method}\n${a.route}`));
      return rows
        .filter((r) => wanted.has(`${r.service}\n${r.method}\n${r.route}`))
        .map((r) => ({
          service: r.service,
          method: r.method,
          route: r.route,
          start: Number(r.minute_ms),
          requests: Number(r.requests),
          hist: r.hist,
        }));
    },
    /** Server and client spans of [from, to) (ms), newest first, at most `limit`: the traffic the divergence check reads. */
    windowSpans(companyId: string, from: number, to: number, limit: number): Promise<WindowSpan[]> {
      return k
        .selectFrom('spans')
        .select(['kind', 'service', 'is_error', 'http_status', 'error_message', 'attributes'])
        .where('company_id', '=', companyId)
        .where('start_us', '>=', from * 1000)
        .where('start_us', '<', to * 1000)
        .where('kind', 'in', [2, 3])
        .orderBy('start_us', 'desc')
        .limit(limit)
        .execute();
    },
    openEpisodes(companyId: string, kind: AnomalyKind): Promise<AnomalyEpisodeRow[]> {
      return k
        .selectFrom('anomaly_episodes')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('kind', '=', kind)
        .where('resolved_at', 'is', null)
        .execute();
    },
    /** Opens an episode; false when one is open already for its subject (another process was first). */
    async open(row: AnomalyEpisodeRow): Promise<boolean> {
      const r = await k
        .insertInto('anomaly_episodes')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
    },
    /** Keeps the evidence current; answers whether the episode was still open. */
    async update(id: string, companyId: string, evidence: string, now: number): Promise<void> {
      await k
        .updateTable('anomaly_episodes')
        .set({ evidence, updated_at: now })
        .where('id', '=', id)
        .where('company_id', '=', companyId)
        .where('resolved_at', 'is', null)
        .execute();
    },
    /** Closes an episode; false when it was closed already. */
    async resolve(id: string, companyId: string, at: number, now: number): Promise<boolean> {
      const r = await k
        .updateTable('anomaly_episodes')
        .set({ resolved_at: at, updated_at: now })
        .where('id', '=', id)
        .where('company_id', '=', companyId)
        .where('resolved_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    list(companyId: string, limit: number): Promise<AnomalyEpisodeRow[]> {
      return k
        .selectFrom('anomaly_episodes')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('started_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
    },
  };
}
