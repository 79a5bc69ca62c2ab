// SQL for probe locations and their tokens (issue 27). A location is public (company_id null) or
// one company's private location: every read names the scope it may see, so another company's
// private location is never returned.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { Database } from '../schema/index.ts';
import type { Kysely } from 'kysely';
import type { ProbeLocationsTable, ProbeTokensTable } from '../schema/probes.ts';

export type ProbeLocationRow = Selectable<ProbeLocationsTable>;
export type ProbeTokenRow = Selectable<ProbeTokensTable>;

/** A location with its company's name (null for a public one) and its probe counts. */
export interface ProbeLocationListRow extends ProbeLocationRow {
  company_name: string | null;
  probes_total: number;
  probes_online: number;
}

/** A live token with the location it belongs to, for authenticating a probe. */
export interface ProbeTokenAuthRow {
  id: string;
  location_id: string;
  revoked_at: number | null;
  last_used_at: number | null;
  slug: string;
  name: string;
  company_id: string | null;
  company_active: boolean | null;
  /** The owning company's subdomain (a private location), for the operator's metrics label */
  company_subdomain: string | null;
  /** The location's number in stored checks (migration 0119) */
  num: number;
}

/** Who may see what: every location (super admins) or the public ones and one company's. */
export type LocationScope = { all: true } | { all: false; companyId: string };

/**
 * The location of the live token of this hash (not revoked; a private location's company active),
 * as a subquery: none for any other token. A probe call's statements begun beside the token's own
 * check (domain/probes/results.ts) are gated by it, so they read and write nothing for a token the
 * check then refuses.
 */
export function liveTokenLocation(k: Kysely<Database>, tokenHash: string) {
  return k
    .selectFrom('probe_tokens as lt')
    .innerJoin('probe_locations as ll', 'll.id', 'lt.location_id')
    .leftJoin('companies as lc', 'lc.id', 'll.company_id')
    .select('ll.id')
    .where('lt.token_hash', '=', tokenHash)
    .where('lt.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('ll.company_id', 'is', null), eb('lc.is_active', '=', true)]));
}

export function probeLocationsRepo(db: DbScope) {
  const k = db.k;
  return {
    /** The locations the scope may see, public ones first, then by company name and slug. */
    async list(scope: LocationScope, onlineSince: number): Promise<ProbeLocationListRow[]> {
      let q = k
        .selectFrom('probe_locations as l')
        .leftJoin('companies as c', 'c.id', 'l.company_id')
        .selectAll('l')
        .select('c.name as company_name')
        .select((eb) => [
          eb.selectFrom('probes as p').whereRef('p.location_id', '=', 'l.id').select(eb.fn.countAll<number>().as('n')).as('probes_total'),
          eb
            .selectFrom('probes as p')
            .whereRef('p.location_id', '=', 'l.id')
            .where('p.last_seen_at', '>=', onlineSince)
            .select(eb.fn.countAll<number>().as('n'))
            .as('probes_online'),
        ]);
      if (!scope.all) q = q.where((eb) => eb.or([eb('l.company_id', 'is', null), eb('l.company_id', '=', scope.companyId)]));
      const rows = await q
        .orderBy((eb) => eb.case().when('l.company_id', 'is', null).then(0).else(1).end())
        .orderBy('c.name')
        .orderBy('l.slug')
        .execute();
      return rows.map((r) => ({ ...r, probes_total: Number(r.probes_total ?? 0), probes_online: Number(r.probes_online ?? 0) }));
    },
    /** One location the scope may see, or undefined (another company's private one included). */
    async find(scope: LocationScope, id: string): Promise<(ProbeLocationRow & { company_name: string | null }) | undefined> {
      let q = k
        .selectFrom('probe_locations as l')
        .leftJoin('companies as c', 'c.id', 'l.company_id')
        .selectAll('l')
        .select('c.name as company_name')
        .where('l.id', '=', id);
      if (!scope.all) q = q.where((eb) => eb.or([eb('l.company_id', 'is', null), eb('l.company_id', '=', scope.companyId)]));
      return q.executeTakeFirst();
    },
    /** The location a new one's slug would clash with: same scope, or a public one for a private slug (and any for a public one). */
    /** Slug and name of these location numbers (a deleted one is absent). */
    async namesOf(nums: number[]): Promise<Map<number, { slug: string; name: string }>> {
      if (nums.length === 0) return new Map();
      const rows = await k.selectFrom('probe_locations').select(['num', 'slug', 'name']).where('num', 'in', nums).execute();
      return new Map(rows.map((r) => [Number(r.num), { slug: r.slug, name: r.name }]));
    },
    async findClash(slug: string, companyId: string | null): Promise<ProbeLocationRow | undefined> {
      let q = k.selectFrom('probe_locations').selectAll().where('slug', '=', slug);
      if (companyId !== null) q = q.where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)]));
      return q.executeTakeFirst();
    },
    /**
     * Inserts a location with the next free number (answered). A deleted location's number is
     * not given again while stored results of it remain in the per-location rollups, so old
     * checks never read as a new location's.
     */
    async insert(row: Omit<Insertable<ProbeLocationsTable>, 'num'>): Promise<number> {
      const top = await k
        .selectNoFrom((eb) => [
          eb
            .selectFrom('probe_locations')
            .select((s) => s.fn.max<number | null>('num').as('n'))
            .as('loc'),
          eb
            .selectFrom('monitor_location_rollups_hourly')
            .select((s) => s.fn.max<number | null>('location').as('n'))
            .as('kept'),
        ])
        .executeTakeFirstOrThrow();
      const num = Math.max(Number(top.loc ?? 0), Number(top.kept ?? 0)) + 1;
      await k
        .insertInto('probe_locations')
        .values({ ...row, num })
        .execute();
      return num;
    },
    /** Deletes a location with its probes and tokens (the foreign keys cascade; said here so both databases do it in one place). */
    async delete(id: string): Promise<void> {
      await k.deleteFrom('probes').where('location_id', '=', id).execute();
      await k.deleteFrom('probe_tokens').where('location_id', '=', id).execute();
      await k.deleteFrom('probe_locations').where('id', '=', id).execute();
    },
    /** The location's tokens that are not revoked, newest first. */
    listTokens(locationId: string): Promise<ProbeTokenRow[]> {
      return k
        .selectFrom('probe_tokens')
        .selectAll()
        .where('location_id', '=', locationId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },
    countLiveTokens(locationId: string): Promise<number> {
      return k
        .selectFrom('probe_tokens')
        .where('location_id', '=', locationId)
        .where('revoked_at', 'is', null)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    },
    async insertToken(row: Insertable<ProbeTokensTable>): Promise<void> {
      await k.insertInto('probe_tokens').values(row).execute();
    },
    /** Revokes one live token of the location: 0 when there is none with that id. */
    async revokeToken(locationId: string, id: string, now: number): Promise<number> {
      const r = await k
        .updateTable('probe_tokens')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('location_id', '=', locationId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    findTokenByHash(tokenHash: string): Promise<ProbeTokenAuthRow | undefined> {
      return k
        .selectFrom('probe_tokens as t')
        .innerJoin('probe_locations as l', 'l.id', 't.location_id')
        .leftJoin('companies as c', 'c.id', 'l.company_id')
        .select([
          't.id',
          't.location_id',
          't.revoked_at',
          't.last_used_at',
          'l.slug',
          'l.name',
          'l.company_id',
          'c.is_active as company_active',
          'c.subdomain as company_subdomain',
          'l.num',
        ])
        .where('t.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },
    async touchToken(id: string, now: number): Promise<void> {
      await k.updateTable('probe_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
    },
  };
}
