// Raw check results older than the company plan keeps them are deleted; rollups stay.
import { HOUR_MS } from '../../lib/timeline.ts';
import { pruneResults } from '../engine/retention.ts';
import type { Job } from './job.ts';

export const checkResultsRetention: Job = {
  name: 'check-results-retention',
  periodMs: HOUR_MS,
  async run(services, now) {
    const n = await pruneResults(services.db, now);
    return n ? `pruned ${n} raw results past retention` : undefined;
  },
};
