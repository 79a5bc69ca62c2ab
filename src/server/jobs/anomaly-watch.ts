// Anomaly watching (issue 33, item 2; domain/anomalies/watch.ts): every 5 minutes, latency against
// each series' seasonal baseline and probes against real traffic, for every company; nothing
// while ENABLE_ADVANCED_ANALYTICS is off. Latency is judged per completed hour, in the first
// quarter of each hour only; the divergence window is 15 minutes, judged each run.
import { flagOn } from '../domain/flags/flags.ts';
import { watchAnomalies } from '../domain/anomalies/watch.ts';
import type { Job } from './job.ts';

export const anomalyWatch: Job = {
  name: 'anomaly-watch',
  periodMs: 5 * 60_000,
  async run(services, now) {
    if (!(await flagOn(services, 'ENABLE_ADVANCED_ANALYTICS'))) return undefined;
    const { opened, resolved } = await watchAnomalies(services, now);
    return opened + resolved > 0 ? `${opened} anomalies raised, ${resolved} ended` : undefined;
  },
};
