// Announces maintenance windows starting and ending (domain/monitors/maintenance-notices.ts):
// every 15 s, so a notice goes out at most that long after the moment.
import { announceMaintenance } from '../domain/monitors/maintenance-notices.ts';
import type { Job } from './job.ts';

export const maintenanceNotices: Job = {
  name: 'maintenance-notices',
  periodMs: 15_000,
  async run(services, now) {
    const sent = await announceMaintenance(services.db, now);
    return sent > 0 ? `${sent} maintenance notices` : undefined;
  },
};
