// SQL for a probe's delivery call in one round trip (PostgreSQL; domain/probes/results.ts): the
// token's check and use, the probe's figures, whether what the call was judged on is still
// current, and (only then) the results' claim and inbox row, in one statement.
import { sql } from 'kysely';
import { prepared } from '../pg-prepared.ts';
import type { DbScope } from '../scope.ts';
import { claimIds, landFresh } from './probe-inbox-repo.ts';
import { advanceStreams } from './probe-result-streams-repo.ts';
import { liveTokenLocation } from './probe-locations-repo.ts';

/** What the call was judged on (a memo of an earlier call's reads), checked against the database. */
export interface DeliveryBasis {
  tokenHash: string;
  /** the token's location: number, slug and (private) company subdomain */
  num: number;
  slug: string;
  subdomain: string | null;
  /** companies whose private location shadows this public slug, sorted (empty for a private one) */
  shadowed: string[];
  /** every monitor the batch names, with the assignment_rev it was judged at */
  monitors: { ids: string[]; revs: Array<number | string> };
}

export type DeliveryClaim = { streams: ReadonlyArray<{ stream: string; seq: number }> } | { ids: string[] };

export function probeDeliveryRepo(db: DbScope) {
  return {
    /**
     * Lands the batch when `basis` still holds; answers whether it held and how many results were
     * new. Whether or not it held, a live token is marked used (at most once per `touchEveryMs`)
     * and the probe's figures are written, as the call's separate statements do. Data-modifying
     * CTEs all run, so the claim itself is gated: with a stale basis nothing is claimed or landed.
     */
    async landIfCurrent(a: {
      basis: DeliveryBasis;
      now: number;
      touchEveryMs: number;
      instance: string;
      stats: { checks_per_second: number; lag_ms: number };
      claim: DeliveryClaim;
      label: string;
      payload: string;
    }): Promise<{ current: boolean; claimed: number }> {
      const { basis: b, now } = a;
      const gate = sql`(select ok from ok)`;
      const total = 'ids' in a.claim ? a.claim.ids.length : a.claim.streams.length;
      const claim = 'ids' in a.claim ? claimIds(b.num, now, a.claim.ids, gate) : advanceStreams(b.num, now, a.claim.streams, gate);
      // prepared (pg-prepared.ts): planning this statement cost more than running it
      const r = await sql<{ current: boolean; claimed: number }>`${prepared}
        with tok as (
          select ll.id, ll.num, ll.slug, lc.subdomain from probe_locations ll left join companies lc on lc.id = ll.company_id
          where ll.id in (${liveTokenLocation(db.k, b.tokenHash)})
        ), touched as (
          update probe_tokens set last_used_at = ${now}
          where token_hash = ${b.tokenHash} and exists (select 1 from tok)
            and (last_used_at is null or last_used_at <= ${now - a.touchEveryMs})
        ), seen as (
          update probes set last_seen_at = ${now}, checks_per_second = ${a.stats.checks_per_second}, lag_ms = ${a.stats.lag_ms}
          where location_id in (select id from tok) and instance = ${a.instance}
        ), ok as (
          select exists (select 1 from tok where num = ${b.num} and slug = ${b.slug} and subdomain is not distinct from ${b.subdomain}::text)
            and (select coalesce(array_agg(pl.company_id::text order by pl.company_id::text collate "C"), '{}')
                 from probe_locations pl join probe_locations own on own.slug = pl.slug
                 where own.id in (select id from tok) and own.company_id is null and pl.company_id is not null) = ${b.shadowed}::text[]
            and (select count(*) from unnest(${b.monitors.ids}::text[], ${b.monitors.revs.map(String)}::bigint[]) as x(id, rev)
                 join monitors m on m.id = x.id and m.assignment_rev = x.rev) = ${b.monitors.ids.length}
            as ok
        ), ${claim}, ${landFresh(b.num, now, total, a.label, a.payload)}
        select (select ok from ok) as current, n.n as claimed from n`.execute(db.k);
      const row = r.rows[0];
      return { current: row?.current === true, claimed: row?.claimed ?? 0 };
    },
  };
}
