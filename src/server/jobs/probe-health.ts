// Probe locations' health (domain/probes/health.ts): a location whose probes all went silent is
// marked offline, one whose checks all fail while other locations succeed is flagged, and whom it
// concerns is told once each way.
import { checkProbeHealth } from '../domain/probes/health.ts';
import type { Job } from './job.ts';

export const probeHealth: Job = {
  name: 'probe-health',
  // Every 15 s: an offline location is noticed within PROBE_OFFLINE_SECONDS + 15 s.
  periodMs: 15_000,
  async run(services, now) {
    const changes = await checkProbeHealth(services, now);
    return changes.length ? changes.join('; ') : undefined;
  },
};
