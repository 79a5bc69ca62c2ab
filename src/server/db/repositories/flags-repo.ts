// SQL for stored feature-flag values (set by super admins).
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { FeatureFlagsTable } from '../schema/identity.ts';

export type FlagRow = Selectable<FeatureFlagsTable>;

export function flagsRepo(db: DbScope) {
  const k = db.k;
  return {
    list(): Promise<FlagRow[]> {
      return k.selectFrom('feature_flags').selectAll().execute();
    },
    async upsert(name: string, enabled: boolean, now: number, by: string): Promise<void> {
      await k
        .insertInto('feature_flags')
        .values({ name, enabled, updated_at: now, updated_by: by })
        .onConflict((oc) => oc.column('name').doUpdateSet({ enabled, updated_at: now, updated_by: by }))
        .execute();
    },
  };
}
