// SQL of on-call schedules and their overrides (migration 0520). companyId null: any company
// (super admins read every company's).
import type { Insertable, Selectable } from 'kysely';
import type { ScheduleOverridesTable, SchedulesTable } from '../schema/oncall.ts';
import type { DbScope } from '../scope.ts';

export type ScheduleRow = Selectable<SchedulesTable>;
export type ScheduleOverrideRow = Selectable<ScheduleOverridesTable>;

export const SCHEDULES_LIST_MAX = 500;

const normal = (r: ScheduleRow): ScheduleRow => ({ ...r, created_at: Number(r.created_at), updated_at: Number(r.updated_at) });
const normalOverride = (r: ScheduleOverrideRow): ScheduleOverrideRow => ({
  ...r,
  start_at: Number(r.start_at),
  end_at: Number(r.end_at),
  created_at: Number(r.created_at),
});

export function schedulesRepo({ k }: DbScope) {
  return {
    async list(companyId: string | null): Promise<ScheduleRow[]> {
      let q = k.selectFrom('schedules').selectAll().orderBy('name').orderBy('id').limit(SCHEDULES_LIST_MAX);
      if (companyId) q = q.where('company_id', '=', companyId);
      return (await q.execute()).map(normal);
    },
    async find(id: string, companyId: string | null): Promise<ScheduleRow | undefined> {
      let q = k.selectFrom('schedules').selectAll().where('id', '=', id);
      if (companyId) q = q.where('company_id', '=', companyId);
      const row = await q.executeTakeFirst();
      return row && normal(row);
    },
    async findMany(ids: readonly string[], companyId: string): Promise<ScheduleRow[]> {
      if (ids.length === 0) return [];
      const rows = await k
        .selectFrom('schedules')
        .selectAll()
        .where('id', 'in', [...ids])
        .where('company_id', '=', companyId)
        .execute();
      return rows.map(normal);
    },
    async countOf(companyId: string): Promise<number> {
      const r = await k
        .selectFrom('schedules')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async insert(row: Insertable<SchedulesTable>): Promise<void> {
      await k.insertInto('schedules').values(row).execute();
    },
    async update(id: string, patch: Pick<SchedulesTable, 'name' | 'time_zone' | 'layers' | 'updated_at'>): Promise<void> {
      await k.updateTable('schedules').set(patch).where('id', '=', id).execute();
    },
    async delete(id: string): Promise<void> {
      await k.deleteFrom('schedules').where('id', '=', id).execute();
    },
    /** Overrides of these schedules that end after `after`, by start. */
    async overridesOf(scheduleIds: readonly string[], after: number): Promise<ScheduleOverrideRow[]> {
      if (scheduleIds.length === 0) return [];
      const rows = await k
        .selectFrom('schedule_overrides')
        .selectAll()
        .where('schedule_id', 'in', [...scheduleIds])
        .where('end_at', '>', after)
        .orderBy('start_at')
        .orderBy('created_at')
        .execute();
      return rows.map(normalOverride);
    },
    async insertOverride(row: Insertable<ScheduleOverridesTable>): Promise<void> {
      await k.insertInto('schedule_overrides').values(row).execute();
    },
    async deleteOverride(scheduleId: string, overrideId: string): Promise<boolean> {
      const r = await k
        .deleteFrom('schedule_overrides')
        .where('id', '=', overrideId)
        .where('schedule_id', '=', scheduleId)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    /** Active users of the company among `ids` (whom a schedule may name). */
    async membersAmong(companyId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await k
        .selectFrom('users')
        .select('id')
        .where('company_id', '=', companyId)
        .where('is_active', '=', true)
        .where('id', 'in', [...ids])
        .execute();
      return new Set(rows.map((r) => r.id));
    },
  };
}
