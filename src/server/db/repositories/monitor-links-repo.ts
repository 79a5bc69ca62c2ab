// SQL for the links between monitors (issue 28): groups name their children in their config,
// any monitor names its parents in `monitors.parents` (JSON arrays of ids). A company has few
// groups and few parents, so these read the company's rows and match in memory.
import type { DbScope } from '../scope.ts';
import type { CheckStatus, MonitorType } from '../schema/monitoring.ts';

/** A monitor as a link sees it: what it is, what it names, and its state. */
export interface LinkedMonitor {
  id: string;
  name: string;
  type: MonitorType;
  config: string;
  parents: string | null;
  status: CheckStatus;
  pending_status: CheckStatus | null;
  is_paused: boolean;
  archived_at: number | null;
}

export function monitorLinksRepo(db: DbScope) {
  const k = db.k;
  const columns = ['id', 'name', 'type', 'config', 'parents', 'status', 'pending_status', 'is_paused', 'archived_at'] as const;
  const read = (rows: LinkedMonitor[]): LinkedMonitor[] => rows.map((r) => ({ ...r, is_paused: Boolean(r.is_paused) }));
  return {
    /** Every monitor of the company (cycle checks, the monitor view's names). */
    async ofCompany(companyId: string): Promise<LinkedMonitor[]> {
      return read(await k.selectFrom('monitors').select(columns).where('company_id', '=', companyId).execute());
    },
    /** These monitors of the company (the others are gone or another company's). */
    async byIds(companyId: string, ids: readonly string[]): Promise<LinkedMonitor[]> {
      if (ids.length === 0) return [];
      return read(
        await k
          .selectFrom('monitors')
          .select(columns)
          .where('company_id', '=', companyId)
          .where('id', 'in', [...ids])
          .execute(),
      );
    },
    /** These monitors' confirmed statuses, for a group's check (paused and archived ones are inactive). */
    async statusesOf(ids: readonly string[]): Promise<Array<{ id: string; name: string; status: CheckStatus; inactive: boolean }>> {
      if (ids.length === 0) return [];
      const rows = await k
        .selectFrom('monitors')
        .select(['id', 'name', 'status', 'is_paused', 'archived_at'])
        .where('id', 'in', [...ids])
        .execute();
      return rows.map((r) => ({ id: r.id, name: r.name, status: r.status, inactive: Boolean(r.is_paused) || r.archived_at !== null }));
    },
    /** The groups of these companies (a group's children are in its config). */
    async groupsOf(companyIds: readonly string[]): Promise<Array<{ id: string; company_id: string; config: string }>> {
      if (companyIds.length === 0) return [];
      return k
        .selectFrom('monitors')
        .select(['id', 'company_id', 'config'])
        .where('type', '=', 'group')
        .where('company_id', 'in', [...companyIds])
        .where('archived_at', 'is', null)
        .execute();
    },
    /** The monitors naming `parentId` among their parents. */
    async dependentsOf(companyId: string, parentId: string): Promise<LinkedMonitor[]> {
      return read(
        await k
          .selectFrom('monitors')
          .select(columns)
          .where('company_id', '=', companyId)
          .where('parents', 'like', `%"${parentId.replace(/[%_"\\]/g, '')}"%`)
          .execute(),
      );
    },
    /** Brings these monitors' next check forward to `at` (a group whose child changed). */
    async dueBy(ids: readonly string[], at: number): Promise<void> {
      if (ids.length === 0) return;
      await k
        .updateTable('monitors')
        .set({ next_due_at: at })
        .where('id', 'in', [...ids])
        .where('next_due_at', '>', at)
        .execute();
    },
  };
}
