// SQL for platform_state: one JSON value per name, shared by every process on the database.
// Changes are compare-and-set on the value read, so of two processes changing the same row from
// the same value exactly one wins (and only the winner sends what the change announces).
import type { DbScope } from '../scope.ts';

export function platformStateRepo(db: DbScope) {
  const k = db.k;
  return {
    async get(name: string): Promise<string | undefined> {
      const row = await k.selectFrom('platform_state').select('value').where('name', '=', name).executeTakeFirst();
      return row?.value;
    },
    /** Writes `value` when the row still holds `expected` (undefined: when there is no row); answers whether it did. */
    async compareAndSet(name: string, expected: string | undefined, value: string, now: number): Promise<boolean> {
      if (expected === undefined) {
        const r = await k
          .insertInto('platform_state')
          .values({ name, value, updated_at: now })
          .onConflict((oc) => oc.column('name').doNothing())
          .executeTakeFirst();
        return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
      }
      const r = await k
        .updateTable('platform_state')
        .set({ value, updated_at: now })
        .where('name', '=', name)
        .where('value', '=', expected)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
  };
}
