// The ids of results taken from probes, and the marks of the probes' result streams, are kept as
// long as a probe may send a batch again (RESULT_ID_RETENTION_MS, 7 days); older ones are deleted
// hourly.
import { HOUR_MS } from '../../lib/timeline.ts';
import { pruneProbeResultIds } from '../domain/probes/results.ts';
import type { Job } from './job.ts';

export const probeResultIds: Job = {
  name: 'probe-result-ids',
  periodMs: HOUR_MS,
  async run(services, now) {
    await pruneProbeResultIds(services, now);
    return undefined;
  },
};
