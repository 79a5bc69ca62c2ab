// Sends the alerts outbox's due deliveries every second. The job's lease only decides which
// process looks first in a period; each delivery carries its own lease (notify/outbox/deliver.ts),
// so a slow period overlapping the next process's run never sends one delivery twice. Besides the
// job, each process sends right after it commits deliveries (startDeliveryWaker): the job is the
// safety net for deliveries of other processes, held for grouping, rate-limited or retried.
import { randomBytes } from 'node:crypto';
import type { Services } from '../domain/context.ts';
import { loggableError } from '../db/outage.ts';
import { DELIVERY_BATCH, runDeliveries } from '../notify/outbox/deliver.ts';
import { onDeliveriesWritten } from '../notify/outbox/wake.ts';
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

/**
 * Sends due deliveries whenever this process commits deliveries, batch after batch while batches
 * come back full, until shutdown. Answers the function that stops it.
 */
export function startDeliveryWaker(services: Services, opts: { log?: (line: string) => void } = {}): () => Promise<void> {
  const holder = `${HOLDER}-now`;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  async function drain(): Promise<void> {
    do {
      again = false;
      try {
        while (!stopped && (await runDeliveries(services, { holder })) === DELIVERY_BATCH);
      } catch (e) {
        opts.log?.(`alerts: sending after commit failed: ${loggableError(e)}`);
      }
    } while (again && !stopped);
  }
  const unsubscribe = onDeliveriesWritten(() => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain().finally(() => (running = null));
  });
  const stop = async () => {
    stopped = true;
    unsubscribe();
    await running;
  };
  (services.onShutdown ??= []).unshift(stop);
  return stop;
}
