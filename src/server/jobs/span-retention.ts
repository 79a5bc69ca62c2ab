// Spans and RED rollups older than the company plan keeps them are deleted. On PostgreSQL the
// days past every plan's retention go first, whole, with their span partitions.
import { HOUR_MS } from '../../lib/timeline.ts';
import { dropExpiredDays } from '../db/day-partitions.ts';
import { sweepRetention } from '../telemetry/service.ts';
import type { Job } from './job.ts';

export const spanRetention: Job = {
  name: 'span-retention',
  periodMs: HOUR_MS,
  async run(services, now) {
    await dropExpiredDays(services.db, now, 'spans');
    await sweepRetention(services);
    return undefined;
  },
};
