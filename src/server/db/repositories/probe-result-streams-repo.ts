// SQL for the probes' result streams (migration 0136, src/lib/probe-result-ids.ts): per location
// and stream the highest result number taken. A result numbered above it is new; one at or below
// it was taken before (a batch sent again after a lost answer).
import { sql } from 'kysely';
import { prepared } from '../pg-prepared.ts';
import type { DbScope } from '../scope.ts';
import { landFresh } from './probe-inbox-repo.ts';
import { streamMarks } from '../../../lib/probe-result-ids.ts';

/**
 * The upsert's conflict clause shared by advance and advanceAndAdd: the mark moves up only, and
 * prev_seq keeps the mark before, which the statement returns.
 */
const moveMark = (
  greatest: 'greatest' | 'max',
) => sql`on conflict (location, stream) do update set prev_seq = probe_result_streams.last_seq,
  last_seq = ${sql.raw(greatest)}(probe_result_streams.last_seq, excluded.last_seq), updated_at = excluded.updated_at`;

/**
 * PostgreSQL: the `up` and `fresh` parts of a delivery's one statement for numbered results:
 * each stream's mark moved up, `fresh` the ordinals (from 1) of the results above the mark it had.
 * No mark moves unless `gate` holds (probe-delivery-repo.ts: the call's memo still current).
 */
export function advanceStreams(location: number, now: number, of: ReadonlyArray<{ stream: string; seq: number }>, gate = sql`true`) {
  const marks = streamMarks(of);
  return sql`up as (
          insert into probe_result_streams (location, stream, last_seq, prev_seq, updated_at)
          select ${location}, s, m, 0, ${now} from unnest(${[...marks.keys()]}::text[], ${[...marks.values()]}::bigint[]) as x(s, m)
          where ${gate}
          ${moveMark('greatest')}
          returning stream, prev_seq
        ), fresh as (
          select x.i from unnest(${of.map((x) => x.stream)}::text[], ${of.map((x) => x.seq)}::bigint[]) with ordinality as x(s, q, i)
          join up on up.stream = x.s where x.q > up.prev_seq
        )`;
}

export function probeResultStreamsRepo(db: DbScope) {
  const k = db.k;
  return {
    /**
     * Moves each stream's mark up to the batch's highest number; answers the mark each had before
     * (0 for a new stream). One upsert: two calls of one stream at once take turns on its row, the
     * second seeing the first's mark.
     */
    async advance(location: number, streams: ReadonlyArray<{ stream: string; maxSeq: number }>, now: number): Promise<Map<string, number>> {
      if (streams.length === 0) return new Map();
      const values = streams.map((s) => sql`(${location}, ${s.stream}, ${s.maxSeq}, 0, ${now})`);
      const r = await sql<{ stream: string; prev_seq: number | string }>`
        insert into probe_result_streams (location, stream, last_seq, prev_seq, updated_at) values ${sql.join(values)}
        ${moveMark(db.kind === 'postgres' ? 'greatest' : 'max')}
        returning stream, prev_seq`.execute(k);
      return new Map(r.rows.map((x) => [x.stream, Number(x.prev_seq)]));
    },
    /**
     * PostgreSQL: `advance` and the new results' inbox row in one statement (as
     * probe-inbox-repo.ts claimAndAdd does for plain ids). `of[i]` is the stream and number of the
     * payload's i-th result; when some were taken before, the row keeps only the others
     * (landFresh). Answers how many were new (0: no row).
     */
    async advanceAndAdd(
      location: number,
      now: number,
      of: ReadonlyArray<{ stream: string; seq: number }>,
      label: string,
      payload: string,
    ): Promise<number> {
      const r = await sql<{ claimed: number }>`${prepared}
        with ${advanceStreams(location, now, of)}, ${landFresh(location, now, of.length, label, payload)}
        select n.n as claimed from n`.execute(k);
      return r.rows[0]?.claimed ?? 0;
    },
    /** Forgets streams not heard of since `before` (their results are too old to be taken again). */
    async prune(before: number): Promise<number> {
      const r = await k.deleteFrom('probe_result_streams').where('updated_at', '<', before).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
