// The probe drain thread (PostgreSQL; started by probe-drain.ts on the first results): stores the
// probe inbox's rows (domain/probes/inbox.ts drainInbox) on its own event loop and its own database
// connection. Storing is most of the ingest's CPU (each result's location state, quorum verdict,
// rollups, incidents: about 0.17 ms of JavaScript a result on PostgreSQL), and on the main thread
// it shared the loop with the status page: at 5 probes x 20,000 monitors with the page offered
// 5,200 req/s, the loop ran at 0.9 of a core with 14 ms of delay at the median (issue 27).
// What a stored row changes that lives in the main thread's memory travels as messages:
// checks_total (scraped there) and the wake-up of the alert sender. Everything else the console
// and the status pages show is read from the database, as for a second process (live/hub.ts,
// status-page/cache.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { drainInbox } from '../domain/probes/inbox.ts';
import { onDeliveriesWritten } from '../notify/outbox/wake.ts';
import { createServices, openConfiguredDb } from '../services.ts';
import type { DrainThreadData, FromDrainThread, ToDrainThread } from './probe-drain-messages.ts';

const port = parentPort;
if (!port) throw new Error('probe-drain-thread.ts runs as a worker thread (probe-drain.ts starts it)');
const { config } = workerData as DrainThreadData;
const send = (m: FromDrainThread) => port.postMessage(m);

/** The highest kick asked for, and answered */
let wanted = 0;
let answered = 0;
let running: Promise<void> | null = null;
let stopping = false;

try {
  const db = openConfiguredDb(config, { secondConnection: true });
  const services = await createServices(config, { db });
  services.countProbeChecks = (label, counts) => send({ type: 'counted', label, counts });
  onDeliveriesWritten(() => send({ type: 'deliveries' }));

  // Kicks that come during a drain are answered by the next round, which sees what they landed.
  const run = async () => {
    while (answered < wanted && !stopping) {
      const upto = wanted;
      try {
        await drainInbox(services, () => stopping);
      } catch (e) {
        // the row stays in the inbox: the next kick or the probe-inbox job's sweep stores it
        console.error('probe drain thread: storing results failed; the probe-inbox job retries', e);
      }
      answered = upto;
      send({ type: 'drained', seq: upto });
    }
    running = null;
  };
  port.on('message', async (m: ToDrainThread) => {
    if (m.type === 'kick') {
      wanted = Math.max(wanted, m.seq);
      running ??= run();
      return;
    }
    // Stop: the row under way commits (or rolls back whole), the rest waits in the inbox for the
    // next start's sweep (a backlog of minutes must not hold a shutdown), then the connection closes.
    stopping = true;
    await running;
    for (const hook of services.onShutdown ?? []) await hook();
    await services.db.close();
    port.close();
  });
} catch (e) {
  send({ type: 'failed', error: e instanceof Error ? e.message : String(e) });
}
