// SQL of the status page settings screen: a company's monitors with their public name, group
// and place, its component groups, and the one-transaction save of a whole layout. Every
// statement is limited to the company.
import { type DbScope, withTransaction } from '../scope.ts';

export interface LayoutMonitorRow {
  id: string;
  name: string;
  type: string;
  config: string;
  is_public: boolean;
  is_paused: boolean;
  status: string;
  public_name: string | null;
  /** JSON {locale: name} (migration 0306) */
  public_name_translations: string | null;
  public_position: number | null;
  public_group_id: string | null;
  public_locations: boolean;
  updated_at: number;
  /** migration 0312 */
  public_response_chart: boolean;
}

export interface LayoutGroupRow {
  id: string;
  name: string;
  /** JSON {locale: name} (migration 0306) */
  name_translations: string | null;
  position: number;
}

/** One monitor's public settings as saved. */
export interface MonitorPlacement {
  id: string;
  is_public: boolean;
  public_name: string | null;
  /** JSON {locale: name}; absent: unchanged */
  public_name_translations?: string | null;
  public_group_id: string | null;
  public_position: number;
  public_locations: boolean;
  public_response_chart: boolean;
}

export interface LayoutChange {
  /** the groups kept or created, in page order (position = index); any other group of the company goes */
  groups: Array<{ id: string; name: string /** JSON; absent: unchanged */; nameTranslations?: string | null; isNew: boolean }>;
  /** only the monitors whose settings change: each is stamped, which changes the page's fingerprint */
  monitors: MonitorPlacement[];
}

export function statusPageSettingsRepo(db: DbScope) {
  const k = db.k;
  return {
    monitorsOf(companyId: string): Promise<LayoutMonitorRow[]> {
      return (
        k
          .selectFrom('monitors')
          .select([
            'id',
            'name',
            'type',
            'config',
            'is_public',
            'is_paused',
            'status',
            'public_name',
            'public_name_translations',
            'public_position',
            'public_group_id',
            'public_locations',
            'updated_at',
            'public_response_chart',
          ])
          .where('company_id', '=', companyId)
          // Archived monitors are off the page and out of its layout until restored.
          .where('archived_at', 'is', null)
          .orderBy('name')
          .orderBy('id')
          .execute() as Promise<LayoutMonitorRow[]>
      );
    },

    groupsOf(companyId: string): Promise<LayoutGroupRow[]> {
      return k
        .selectFrom('status_page_groups')
        .select(['id', 'name', 'name_translations', 'position'])
        .where('company_id', '=', companyId)
        .orderBy('position')
        .orderBy('id')
        .execute();
    },

    /** Applies a layout in one transaction: groups replaced, monitors moved, renamed, made public or private. */
    save(companyId: string, change: LayoutChange, now: number): Promise<void> {
      return withTransaction(db, async (tx) => {
        const trx = tx.k;
        const kept = change.groups.filter((g) => !g.isNew).map((g) => g.id);
        let gone = trx.deleteFrom('status_page_groups').where('company_id', '=', companyId);
        if (kept.length > 0) gone = gone.where('id', 'not in', kept);
        await gone.execute();
        // Monitors of a removed group are listed on their own (stamped: the page changes).
        let orphans = trx
          .updateTable('monitors')
          .set({ public_group_id: null, updated_at: now })
          .where('company_id', '=', companyId)
          .where('public_group_id', 'is not', null);
        if (kept.length > 0) orphans = orphans.where('public_group_id', 'not in', kept);
        await orphans.execute();
        const existing = new Map((await statusPageSettingsRepo(tx).groupsOf(companyId)).map((g) => [g.id, g]));
        for (const [position, g] of change.groups.entries()) {
          if (g.isNew) {
            await trx
              .insertInto('status_page_groups')
              .values({
                id: g.id,
                company_id: companyId,
                name: g.name,
                name_translations: g.nameTranslations ?? null,
                position,
                created_at: now,
                updated_at: now,
              })
              .execute();
          } else {
            const was = existing.get(g.id);
            const translations = g.nameTranslations === undefined ? was?.name_translations : g.nameTranslations;
            if (was && (was.name !== g.name || was.name_translations !== translations || Number(was.position) !== position))
              await trx
                .updateTable('status_page_groups')
                .set({ name: g.name, name_translations: translations ?? null, position, updated_at: now })
                .where('id', '=', g.id)
                .where('company_id', '=', companyId)
                .execute();
          }
        }
        for (const m of change.monitors) {
          await trx
            .updateTable('monitors')
            .set({
              is_public: m.is_public,
              public_name: m.public_name,
              ...(m.public_name_translations === undefined ? {} : { public_name_translations: m.public_name_translations }),
              public_group_id: m.public_group_id,
              public_position: m.public_position,
              public_locations: m.public_locations,
              public_response_chart: m.public_response_chart,
              updated_at: now,
            })
            .where('id', '=', m.id)
            .where('company_id', '=', companyId)
            .execute();
        }
      });
    },
  };
}
