// Raw check results older than the company plan keeps them are deleted; rollups stay. On
// PostgreSQL the days past every plan's retention go first, whole, with their partitions, so the
// row deletes that follow only touch the days shorter plans no longer keep.
import { HOUR_MS } from '../../lib/timeline.ts';
import { dropExpiredDays } from '../db/day-partitions.ts';
import { pruneResults } from '../engine/retention.ts';
import type { Job } from './job.ts';

export const checkResultsRetention: Job = {
  name: 'check-results-retention',
  periodMs: HOUR_MS,
  async run(services, now) {
    const days = await dropExpiredDays(services.db, now, 'check_results');
    const n = await pruneResults(services.db, now);
    const done = [...(n ? [`pruned ${n} raw results past retention`] : []), ...(days ? [`dropped ${days} day partitions`] : [])];
    return done.length ? done.join('; ') : undefined;
  },
};
