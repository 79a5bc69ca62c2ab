// SQL of scheduled SLA reports (migration 0510). companyId null: any company (super admins).
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { AlertDeliveriesTable, ReportSchedulesTable } from '../schema/alerts.ts';
import type { DbScope } from '../scope.ts';

export type ReportScheduleRow = Selectable<ReportSchedulesTable>;

const LIST_MAX = 1000;

const normal = (r: ReportScheduleRow): ReportScheduleRow => ({
  ...r,
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
});

export function reportSchedulesRepo({ k }: DbScope) {
  return {
    async list(companyId: string | null): Promise<ReportScheduleRow[]> {
      let q = k.selectFrom('report_schedules').selectAll().orderBy('created_at').orderBy('id').limit(LIST_MAX);
      if (companyId) q = q.where('company_id', '=', companyId);
      return (await q.execute()).map(normal);
    },
    async find(id: string, companyId: string | null): Promise<ReportScheduleRow | undefined> {
      let q = k.selectFrom('report_schedules').selectAll().where('id', '=', id);
      if (companyId) q = q.where('company_id', '=', companyId);
      const row = await q.executeTakeFirst();
      return row && normal(row);
    },
    async countOf(companyId: string): Promise<number> {
      const r = await k
        .selectFrom('report_schedules')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async insert(row: Insertable<ReportSchedulesTable>): Promise<void> {
      await k.insertInto('report_schedules').values(row).execute();
    },
    async update(id: string, patch: Updateable<ReportSchedulesTable>): Promise<void> {
      await k.updateTable('report_schedules').set(patch).where('id', '=', id).execute();
    },
    async delete(id: string): Promise<void> {
      await k.deleteFrom('report_schedules').where('id', '=', id).execute();
    },
    /** Enabled schedules that have not sent `period` of their frequency yet. */
    async unsent(frequency: string, period: string): Promise<ReportScheduleRow[]> {
      const rows = await k
        .selectFrom('report_schedules')
        .selectAll()
        .where('enabled', '=', true)
        .where('frequency', '=', frequency as ReportSchedulesTable['frequency'])
        .where((eb) => eb.or([eb('last_sent_period', 'is', null), eb('last_sent_period', '<>', period)]))
        .execute();
      return rows.map(normal);
    },
    /** Puts a schedule's mail of one period in the alerts outbox. */
    async enqueueMail(row: Insertable<AlertDeliveriesTable>): Promise<void> {
      await k.insertInto('alert_deliveries').values(row).execute();
    },
    /**
     * The once-per-period marker: moves last_sent_period to `period` unless it is there already.
     * Answers whether this call moved it (only one of several processes ever does).
     */
    async claimPeriod(id: string, period: string, now: number): Promise<boolean> {
      const r = await k
        .updateTable('report_schedules')
        .set({ last_sent_period: period, updated_at: now })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_sent_period', 'is', null), eb('last_sent_period', '<>', period)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
  };
}
