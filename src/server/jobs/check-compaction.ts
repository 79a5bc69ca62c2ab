// Raw check results older than a minute move into compact per-hour chunks (engine/compaction.ts).
import { compactResults } from '../engine/compaction.ts';
import type { Job } from './job.ts';

export const checkCompaction: Job = {
  name: 'check-compaction',
  // Every 2 minutes: the rows waiting between runs (about 220 bytes each on PostgreSQL) are the
  // largest fixed cost of check storage; a run rewrites each monitor's open-hour chunk once.
  periodMs: 2 * 60_000,
  async run(services, now) {
    const n = await compactResults(services.db, now);
    return n ? `compacted ${n} check results` : undefined;
  },
};
