// SQL for keeping monitors' location lists right (issue 27): `run_local` for the monitors that use
// their company's default set, and a deleted location's slug dropped from the monitors and
// default sets naming it. Matching a slug inside the stored JSON text is a coarse LIKE; the
// caller parses each row found and decides, so a slug that is part of another never matches.
import type { DbScope } from '../scope.ts';

export interface NamedLocationsRow {
  id: string;
  company_id: string;
  locations: string | null;
}

const quoted = (slug: string) => `%"${slug}"%`;

export function monitorLocationsRepo(db: DbScope) {
  const k = db.k;
  return {
    /** The company's monitors without their own set follow its default: the built-in engine checks them or not. */
    async setRunLocalForDefault(companyId: string, runLocal: boolean): Promise<void> {
      await k
        .updateTable('monitors')
        .set({ run_local: runLocal })
        .where('company_id', '=', companyId)
        .where('locations', 'is', null)
        .where('run_local', '!=', runLocal)
        .execute();
    },
    /**
     * The company's monitors following its default set whose own quorum exceeds the set's new
     * size go back to the majority (a quorum no set can reach would refuse their next edit).
     */
    async clearQuorumAbove(companyId: string, size: number): Promise<void> {
      await k
        .updateTable('monitors')
        .set({ quorum: null })
        .where('company_id', '=', companyId)
        .where('locations', 'is', null)
        .where('quorum', '>', size)
        .execute();
    },
    /** Monitors whose list may name the slug (all companies', or one company's for a private location). */
    monitorsNaming(slug: string, companyId: string | null): Promise<NamedLocationsRow[]> {
      let q = k.selectFrom('monitors').select(['id', 'company_id', 'locations']).where('locations', 'like', quoted(slug));
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      return q.execute();
    },
    /** Companies whose default set may name the slug. */
    companiesNaming(slug: string, companyId: string | null): Promise<Array<{ id: string; default_locations: string | null }>> {
      let q = k.selectFrom('companies').select(['id', 'default_locations']).where('default_locations', 'like', quoted(slug));
      if (companyId !== null) q = q.where('id', '=', companyId);
      return q.execute();
    },
    async setMonitorLocations(id: string, locations: string | null, quorum: number | null, runLocal: boolean, now: number): Promise<void> {
      await k.updateTable('monitors').set({ locations, quorum, run_local: runLocal, updated_at: now }).where('id', '=', id).execute();
    },
    async setCompanyDefault(id: string, defaultLocations: string | null): Promise<void> {
      await k.updateTable('companies').set({ default_locations: defaultLocations }).where('id', '=', id).execute();
    },
  };
}
