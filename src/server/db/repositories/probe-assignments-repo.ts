// SQL for what a probe location checks (issue 27): the monitors its probes are assigned, read
// whole once and then by change (monitors.assignment_rev, kept by triggers: migration 0121), and
// the monitors a batch of results names. Which of these rows are assigned to a location is decided
// in domain/probes/assignment-scope.ts; the LIKE here only narrows the rows read to those naming
// the slug (slugs are [a-z0-9-], so `"slug"` inside the JSON text matches that element alone).
import { sql } from 'kysely';
import type { DbScope } from '../scope.ts';
import { anyOf } from './any-of.ts';
import { liveTokenLocation } from './probe-locations-repo.ts';

export interface AssignmentCandidate {
  id: string;
  company_id: string;
  type: string;
  is_paused: boolean;
  archived_at: number | null;
  locations: string | null;
  default_locations: string | null;
  company_active: boolean;
  assignment_rev: number;
}

export interface AssignmentRow extends AssignmentCandidate {
  config: string;
  interval_seconds: number;
  timeout_seconds: number;
}

export interface AssignmentScopeFilter {
  slug: string;
  /** A private location's company: only its monitors; null for a public location */
  companyId: string | null;
}

export function probeAssignmentsRepo(db: DbScope) {
  const k = db.k;
  const base = (f: AssignmentScopeFilter) => {
    let q = k.selectFrom('monitors as m').innerJoin('companies as c', 'c.id', 'm.company_id');
    if (f.companyId !== null) q = q.where('m.company_id', '=', f.companyId);
    return q;
  };
  const light = [
    'm.id',
    'm.company_id',
    'm.type',
    'm.is_paused',
    'm.archived_at',
    'm.locations',
    'c.default_locations',
    'c.is_active as company_active',
    'm.assignment_rev',
  ] as const;
  const whole = [...light, 'm.config', 'm.interval_seconds', 'm.timeout_seconds'] as const;
  const naming = (f: AssignmentScopeFilter) => {
    const quoted = `%"${f.slug}"%`;
    return base(f)
      .where('m.is_paused', '=', false)
      .where('m.archived_at', 'is', null)
      .where((eb) =>
        eb.or([eb('m.locations', 'like', quoted), eb.and([eb('m.locations', 'is', null), eb('c.default_locations', 'like', quoted)])]),
      );
  };
  return {
    /** The latest change of a monitor of the scope (0: none yet): one step down an index. */
    async latestRev(f: AssignmentScopeFilter): Promise<number> {
      let q = k.selectFrom('monitors').select((eb) => eb.fn.max('assignment_rev').as('rev'));
      if (f.companyId !== null) q = q.where('company_id', '=', f.companyId);
      const r = await q.executeTakeFirst();
      return Number(r?.rev ?? 0);
    },
    /** How many monitors the scope has (a deletion shows here: it moves no rev). */
    async total(f: AssignmentScopeFilter): Promise<number> {
      let q = k.selectFrom('monitors').select((eb) => eb.fn.countAll<number>().as('n'));
      if (f.companyId !== null) q = q.where('company_id', '=', f.companyId);
      return Number((await q.executeTakeFirst())?.n ?? 0);
    },
    /** Monitors naming the slug (directly or by their company's default set), whole. */
    naming(f: AssignmentScopeFilter): Promise<AssignmentRow[]> {
      return naming(f).select(whole).orderBy('m.id').execute() as Promise<AssignmentRow[]>;
    },
    /** The same monitors, without what the checker needs: to count them and fingerprint their ids. */
    namingIds(f: AssignmentScopeFilter): Promise<AssignmentCandidate[]> {
      return naming(f).select(light).execute() as Promise<AssignmentCandidate[]>;
    },
    /** Every monitor of the scope changed after `rev`, in or out of the location's set now. */
    changedSince(f: AssignmentScopeFilter, rev: number): Promise<AssignmentRow[]> {
      return base(f).select(whole).where('m.assignment_rev', '>', rev).orderBy('m.id').execute() as Promise<AssignmentRow[]>;
    },
    /**
     * The monitors a batch of results names (those that exist), read only for a live token
     * (liveTokenLocation): the delivery call begins it beside the token's own check. Without
     * what the checker needs (config and timings): deciding whether a result is taken needs the
     * assignment rule's columns alone, and a call names 333 monitors a second.
     */
    byIdsUnderToken(tokenHash: string, ids: string[]): Promise<AssignmentCandidate[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return base({ slug: '', companyId: null })
        .select(light)
        .where(anyOf(db, 'm.id', ids, 'text'))
        .where((eb) => eb.exists(liveTokenLocation(k, tokenHash)))
        .execute() as Promise<AssignmentCandidate[]>;
    },
    /**
     * companiesWithPrivateSlug of a live token's location when it is public (liveTokenLocation);
     * none for a private location's token, whose slug names its own location.
     */
    async companiesWithPrivateSlugUnderToken(tokenHash: string): Promise<Set<string>> {
      const rows = await k
        .selectFrom('probe_locations as pl')
        .innerJoin('probe_locations as own', 'own.slug', 'pl.slug')
        .select('pl.company_id')
        .where('own.id', 'in', liveTokenLocation(k, tokenHash))
        .where('own.company_id', 'is', null)
        .where('pl.company_id', 'is not', null)
        .execute();
      return new Set(rows.map((r) => r.company_id as string));
    },
    /** Companies having a private location of this slug: for them the slug names that one, not the public one. */
    async companiesWithPrivateSlug(slug: string): Promise<Set<string>> {
      const rows = await k
        .selectFrom('probe_locations')
        .select('company_id')
        .where('slug', '=', slug)
        .where('company_id', 'is not', null)
        .execute();
      return new Set(rows.map((r) => r.company_id as string));
    },
    /**
     * Marks monitors changed for the probes without a change of their own columns (a company
     * secret their steps name was replaced): the next long poll sends them again.
     */
    async bump(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await sql`update monitors set assignment_rev = (select coalesce(max(assignment_rev), 0) + 1 from monitors) where id in (${sql.join([...ids])})`.execute(
        db.k,
      );
    },
  };
}
