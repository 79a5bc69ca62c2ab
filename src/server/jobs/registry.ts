// Every timed job of the product, in one table. A new job is one file exporting a `Job` plus
// its line here; the runner gives it a lease and a schedule.
import type { Job } from './job.ts';
import { alertDelivery } from './alert-delivery.ts';
import { checkResultsRetention } from './check-results-retention.ts';
import { customDomains } from './custom-domains.ts';
import { escalation } from './escalation.ts';
import { maintenanceNotices } from './maintenance-notices.ts';
import { sessionSweep } from './session-sweep.ts';
import { spanRetention } from './span-retention.ts';

export const JOBS: readonly Job[] = [
  checkResultsRetention,
  spanRetention,
  sessionSweep,
  alertDelivery,
  maintenanceNotices,
  escalation,
  customDomains,
];
