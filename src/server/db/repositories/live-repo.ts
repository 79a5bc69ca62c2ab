// SQL for the console's live stream (domain/live): cheap reads of what changed, asked once per
// tick for every company watched by this process, whatever the number of open tabs.
import { sql, type Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { MonitorsTable } from '../schema/monitoring.ts';

/** The state columns a console row shows live (status pill, last checked, response time). */
export type LiveMonitorRow = Pick<
  Selectable<MonitorsTable>,
  | 'id'
  | 'company_id'
  | 'status'
  | 'status_since'
  | 'is_paused'
  | 'archived_at'
  | 'last_checked_at'
  | 'last_response_time_ms'
  | 'last_http_code'
  | 'updated_at'
>;

/** One company's change marker of one table: a different value means rows were added or removed (or changed). */
export interface CompanyMarker {
  company_id: string;
  table: 'monitors' | 'incidents' | 'maintenance';
  rows: number;
  latest: number | null;
}

export interface UserNotificationMarker {
  user_id: string;
  rows: number;
  unread: number;
  latest: number | null;
}

export function liveRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Monitors written after `since` (every check writes updated_at), oldest first; null companies: all. */
    monitorsChangedSince(since: number, companyIds: string[] | null, limit: number): Promise<LiveMonitorRow[]> {
      let q = k
        .selectFrom('monitors')
        .select([
          'id',
          'company_id',
          'status',
          'status_since',
          'is_paused',
          'archived_at',
          'last_checked_at',
          'last_response_time_ms',
          'last_http_code',
          'updated_at',
        ])
        .where('updated_at', '>', since);
      if (companyIds) q = q.where('company_id', 'in', companyIds);
      return q.orderBy('updated_at').limit(limit).execute();
    },

    /**
     * Per company and table: how many rows, and when the latest was created (monitors) or
     * written (the others). A count catches deletions; a monitor's other changes come as its
     * rows. Counted from the company indexes; one round trip.
     */
    async companyMarkers(companyIds: string[] | null): Promise<CompanyMarker[]> {
      if (companyIds?.length === 0) return [];
      const scoped = companyIds ? sql`where company_id in (${sql.join(companyIds)})` : sql``;
      const rows = await sql<{ company_id: string; kind: CompanyMarker['table']; n: number | string; latest: number | string | null }>`
        select company_id, 'monitors' as kind, count(*) as n, max(created_at) as latest from monitors ${scoped} group by company_id
        union all
        select company_id, 'incidents', count(*), max(updated_at) from incidents ${scoped} group by company_id
        union all
        select company_id, 'maintenance', count(*), max(coalesce(updated_at, created_at))
          from maintenance_windows ${scoped} group by company_id`.execute(k);
      return rows.rows.map((r) => ({
        company_id: r.company_id,
        table: r.kind,
        rows: Number(r.n),
        latest: r.latest === null ? null : Number(r.latest),
      }));
    },

    /** Per user: notifications held, unread, and the newest (marking read changes `unread`). */
    async notificationMarkers(userIds: string[]): Promise<UserNotificationMarker[]> {
      if (userIds.length === 0) return [];
      const rows = await k
        .selectFrom('notifications')
        .select((eb) => [
          'user_id',
          eb.fn.countAll<number | string>().as('rows'),
          eb.fn.sum<number | string | null>(eb.case().when('is_read', '=', false).then(1).else(0).end()).as('unread'),
          eb.fn.max('created_at').as('latest'),
        ])
        .where('user_id', 'in', userIds)
        .groupBy('user_id')
        .execute();
      return rows.map((r) => ({
        user_id: r.user_id,
        rows: Number(r.rows),
        unread: Number(r.unread ?? 0),
        latest: r.latest === null ? null : Number(r.latest),
      }));
    },
  };
}
