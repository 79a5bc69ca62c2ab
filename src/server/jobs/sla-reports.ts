// Scheduled SLA reports (domain/reports/schedule-run.ts): every 15 minutes, each enabled
// schedule that has not sent the last complete month or week gets its mail queued in the alerts
// outbox, once per period across all processes (the job's lease, and the schedule's marker).
import { queueScheduledReports } from '../domain/reports/schedule-run.ts';
import type { Job } from './job.ts';

export const slaReports: Job = {
  name: 'sla-reports',
  periodMs: 15 * 60_000,
  async run(services, now) {
    const queued = await queueScheduledReports(services.db, now);
    return queued > 0 ? `${queued} scheduled SLA reports queued` : undefined;
  },
};
