// Raw check results older than a minute move into compact per-hour chunks (engine/compaction.ts).
import { compactResults } from '../engine/compaction.ts';
import type { Job } from './job.ts';

export const checkCompaction: Job = {
  name: 'check-compaction',
  periodMs: 5 * 60_000,
  async run(services, now) {
    const n = await compactResults(services.db, now);
    return n ? `compacted ${n} check results` : undefined;
  },
};
