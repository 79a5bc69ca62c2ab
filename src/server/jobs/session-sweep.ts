// Refresh tokens, one-time codes and pending sign-ups a day past their expiry are deleted, and
// throttle events (sign-in, signup, password reset) past their window.
import { HOUR_MS } from '../../lib/timeline.ts';
import { sweepExpiredSessions } from '../domain/auth/sessions.ts';
import type { Job } from './job.ts';

export const sessionSweep: Job = {
  name: 'session-sweep',
  periodMs: HOUR_MS,
  async run(services, now) {
    await sweepExpiredSessions(services, now);
    return undefined;
  },
};
