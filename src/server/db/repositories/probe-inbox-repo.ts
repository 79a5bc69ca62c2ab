// SQL for the inbox of probe results taken and not yet stored (migration 0126).
import { sql } from 'kysely';
import { prepared } from '../pg-prepared.ts';
import type { DbScope } from '../scope.ts';

export interface InboxRow {
  seq: number;
  location: number;
  received_at: number;
  results: string;
}

/**
 * PostgreSQL: the `n` and `landed` parts of a delivery's one statement. Given a CTE `fresh` of the
 * ordinals (from 1) of the payload's results that are new, lands them as one inbox row: the
 * payload as it is when all are, else filtered here to the new ones (a batch sent again). `n` is
 * how many were new (no row when none). `landed` runs though nothing reads it, as every
 * data-modifying WITH does in PostgreSQL.
 */
export function landFresh(location: number, now: number, total: number, label: string, payload: string) {
  // The payload goes once, as one parameter both branches read (each `${}` is a parameter of its
  // own: written twice it was sent twice, 240 KB a call instead of 120).
  return sql`n as (select count(*)::int as n from fresh), body as (select ${payload}::text as text), landed as (
    insert into probe_result_inbox (location, received_at, count, results)
    select ${location}, ${now}, n.n, case when n.n = ${total} then body.text else (
      select jsonb_build_object('label', ${label}::text, 'results', jsonb_agg(r.value order by r.i))::text
      from jsonb_array_elements((body.text::jsonb)->'results') with ordinality as r(value, i)
      where r.i in (select i from fresh)
    ) end
    from n, body where n.n > 0
    returning seq
  )`;
}

/**
 * PostgreSQL: the `claimed` and `fresh` parts of a delivery's one statement for results with ids
 * of any form: each id claimed in probe_results_seen, `fresh` the ordinals (from 1) of those
 * claimed now. Nothing is claimed unless `gate` holds (probe-delivery-repo.ts: the call's memo
 * still current).
 */
export function claimIds(location: number, now: number, ids: string[], gate = sql`true`) {
  return sql`claimed as (
          insert into probe_results_seen (location, result_id, received_at)
          select ${location}, id, ${now} from unnest(${ids}::text[]) as id where ${gate}
          on conflict (location, result_id) do nothing
          returning result_id
        ), fresh as (
          select x.i from unnest(${ids}::text[]) with ordinality as x(id, i) where x.id in (select result_id from claimed)
        )`;
}

export function probeInboxRepo(db: DbScope) {
  const k = db.k;
  return {
    async add(rows: Array<{ location: number; received_at: number; count: number; results: string }>): Promise<void> {
      if (rows.length) await k.insertInto('probe_result_inbox').values(rows).execute();
    },
    /**
     * PostgreSQL: a delivery call's ids claimed (probe_results_seen) and its results landed as one
     * inbox row, in one statement (atomic without a transaction: one round trip where BEGIN,
     * claim, insert and COMMIT took four, each a wait for a core on a loaded machine). `payload`
     * is the row's JSON with every result, `ids` their ids in the same order; when some were
     * claimed before (a batch sent again), the row keeps only the others (landFresh). Answers
     * how many were claimed (0: no row).
     */
    async claimAndAdd(location: number, now: number, ids: string[], label: string, payload: string): Promise<number> {
      const r = await sql<{ claimed: number }>`${prepared}
        with ${claimIds(location, now, ids)}, ${landFresh(location, now, ids.length, label, payload)}
        select n.n as claimed from n`.execute(k);
      return r.rows[0]?.claimed ?? 0;
    },
    /** Whether any row waits to be stored */
    async waiting(): Promise<boolean> {
      return (await k.selectFrom('probe_result_inbox').select('seq').limit(1).executeTakeFirst()) !== undefined;
    },
    /**
     * Takes the oldest row: deletes it and answers it (null when empty). Run inside the transaction
     * that stores its results, so the row goes exactly when they land; on PostgreSQL a second
     * process deleting the same row waits, then finds it gone and takes none.
     */
    async takeOldest(): Promise<InboxRow | null> {
      const oldest = await k.selectFrom('probe_result_inbox').select('seq').orderBy('seq').limit(1).executeTakeFirst();
      if (!oldest) return null;
      const row = await k
        .deleteFrom('probe_result_inbox')
        .where('seq', '=', oldest.seq)
        .returning(['seq', 'location', 'received_at', 'results'])
        .executeTakeFirst();
      return row ? { ...row, seq: Number(row.seq), received_at: Number(row.received_at) } : null;
    },
    /** Results waiting, and since when the oldest (null: none). */
    async backlog(): Promise<{ results: number; oldest: number | null }> {
      const r = await k
        .selectFrom('probe_result_inbox')
        .select((e) => [e.fn.coalesce(e.fn.sum<number>('count'), e.val(0)).as('n'), e.fn.min<number>('received_at').as('oldest')])
        .executeTakeFirstOrThrow();
      return { results: Number(r.n), oldest: r.oldest == null ? null : Number(r.oldest) };
    },
  };
}
