// What the platform keeps to take each probe result once (issue 27): plain result ids and the
// probes' result streams (one mark per stream, src/lib/probe-result-ids.ts) are forgotten by the
// hourly probe-result-ids job once older than the retention, after which a result that old is
// refused as too_old anyway; younger ones are kept. On both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT_ID_RETENTION_MS } from '../../../src/lib/probe-assignments.ts';
import { probeResultStreamsRepo } from '../../../src/server/db/repositories/probe-result-streams-repo.ts';
import { probeResultsSeenRepo } from '../../../src/server/db/repositories/probe-results-seen-repo.ts';
import { withTransaction } from '../../../src/server/db/scope.ts';
import { probeResultIds } from '../../../src/server/jobs/probe-result-ids.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';

describe.each(DB_KINDS)('probe result ids and streams kept on %s', (kind) => {
  let t: TestApp;
  const clock = Date.parse('2026-11-29T10:00:00Z');
  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock });
  });
  afterAll(async () => t?.close());

  it('advances a stream to its highest number, answers the mark before, and forgets streams and ids past the retention', async () => {
    const streams = probeResultStreamsRepo(t.services.db);
    const old = clock - RESULT_ID_RETENTION_MS - 60_000;
    const before = await withTransaction(t.services.db, (tx) =>
      probeResultStreamsRepo(tx).advance(
        7,
        [
          { stream: 'oldAAAAAAAAAAAAAAAAAAA', maxSeq: 10 },
          { stream: 'newAAAAAAAAAAAAAAAAAAA', maxSeq: 3 },
        ],
        old,
      ),
    );
    expect(Object.fromEntries(before)).toEqual({ oldAAAAAAAAAAAAAAAAAAA: 0, newAAAAAAAAAAAAAAAAAAA: 0 });
    // a lower number does not move the mark back; the answer is the mark before
    const again = await streams.advance(
      7,
      [
        { stream: 'newAAAAAAAAAAAAAAAAAAA', maxSeq: 2 },
        { stream: 'newBBBBBBBBBBBBBBBBBBB', maxSeq: 1 },
      ],
      clock,
    );
    expect(Object.fromEntries(again)).toEqual({ newAAAAAAAAAAAAAAAAAAA: 3, newBBBBBBBBBBBBBBBBBBB: 0 });
    await probeResultsSeenRepo(t.services.db).claim(7, ['old-id'], old);
    await probeResultsSeenRepo(t.services.db).claim(7, ['new-id'], clock);

    await probeResultIds.run(t.services, clock);

    const kept = await t.services.db.k.selectFrom('probe_result_streams').select(['stream', 'last_seq']).orderBy('stream').execute();
    expect(kept.map((s) => [s.stream, Number(s.last_seq)])).toEqual([
      ['newAAAAAAAAAAAAAAAAAAA', 3],
      ['newBBBBBBBBBBBBBBBBBBB', 1],
    ]);
    const ids = await t.services.db.k.selectFrom('probe_results_seen').select('result_id').execute();
    expect(ids.map((r) => r.result_id)).toEqual(['new-id']);
  });
});
