// Sends the alerts outbox's due deliveries every second. The job's lease only decides which
// process looks first in a period; each delivery carries its own lease (notify/outbox/deliver.ts),
// so a slow period overlapping the next process's run never sends one delivery twice.
import { randomBytes } from 'node:crypto';
import { runDeliveries } from '../notify/outbox/deliver.ts';
import type { Job } from './job.ts';

/** This process's name on the deliveries it leases */
const HOLDER = `alerts-${process.pid}-${randomBytes(4).toString('hex')}`;

export const alertDelivery: Job = {
  name: 'alert-delivery',
  periodMs: 1000,
  async run(services) {
    const sent = await runDeliveries(services, { holder: HOLDER });
    return sent > 0 ? `${sent} alert deliveries attempted` : undefined;
  },
};
