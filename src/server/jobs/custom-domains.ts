// Verified custom domains are re-checked once a day (each run takes those checked more than a day
// ago); one that lost its DNS records stops being served and its company's admins are told.
import { HOUR_MS } from '../../lib/timeline.ts';
import { recheckCustomDomains } from '../domain/custom-domains/recheck.ts';
import type { Job } from './job.ts';

export const customDomains: Job = {
  name: 'custom-domains',
  periodMs: HOUR_MS,
  async run(services, now) {
    const r = await recheckCustomDomains(services, now);
    return r.failed ? `${r.failed} of ${r.checked} custom domains failed their re-check` : undefined;
  },
};
