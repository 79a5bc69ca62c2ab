// Spans and RED rollups older than the company plan keeps them are deleted.
import { HOUR_MS } from '../../lib/timeline.ts';
import { sweepRetention } from '../telemetry/service.ts';
import type { Job } from './job.ts';

export const spanRetention: Job = {
  name: 'span-retention',
  periodMs: HOUR_MS,
  async run(services) {
    await sweepRetention(services);
    return undefined;
  },
};
