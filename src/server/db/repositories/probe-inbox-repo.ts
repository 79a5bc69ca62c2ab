// SQL for the inbox of probe results taken and not yet stored (migration 0126).
import type { DbScope } from '../scope.ts';

export interface InboxRow {
  seq: number;
  location: number;
  received_at: number;
  results: string;
}

export function probeInboxRepo(db: DbScope) {
  const k = db.k;
  return {
    async add(rows: Array<{ location: number; received_at: number; count: number; results: string }>): Promise<void> {
      if (rows.length) await k.insertInto('probe_result_inbox').values(rows).execute();
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
