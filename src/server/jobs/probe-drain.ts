// On PostgreSQL the platform stores its probes' results in a thread of its own (probe-drain-thread.ts),
// started with the first results (an install without probes never starts it), so the status page's
// requests and the ingest's storing no longer take turns on one event loop. The main thread keeps
// what lives in its memory: checks_total, and the alert sender, woken when the thread commits
// deliveries. SQLite stays on the main thread: node:sqlite is synchronous, and a second writer
// would make the main thread sleep in SQLite's busy handler whenever the thread held the lock.
// If the thread fails, the main thread drains again, as before.
import { Worker } from 'node:worker_threads';
import type { ProbeInboxDrainer, Services } from '../domain/context.ts';
import { countProbeChecksHere, inboxDrained, kickInbox } from '../domain/probes/inbox.ts';
import { deliveriesWrittenElsewhere } from '../notify/outbox/wake.ts';
import type { DrainThreadData, FromDrainThread, ToDrainThread } from './probe-drain-messages.ts';

/** The drain thread of a platform on PostgreSQL (tests look at it; main.ts needs nothing) */
export interface ProbeDrainThread {
  /** null until the first results, and after it ended */
  worker(): Worker | null;
  /** What shutdown runs: the row under way commits, the rest stays in the inbox for the next start's sweep */
  stop(): Promise<void>;
}

/** On PostgreSQL, drains the probe inbox in a thread from the first results on; on SQLite does nothing (null). */
export function drainProbeInboxInThread(services: Services, opts: { log(m: string): void }): ProbeDrainThread | null {
  if (services.db.kind !== 'postgres') return null;
  let worker: Worker | null = null;
  let stopping = false;
  /** kicks sent, and the highest answered */
  let sent = 0;
  let answered = 0;
  const waiting: Array<{ seq: number; resolve(): void }> = [];
  const post = (m: ToDrainThread) => worker?.postMessage(m);

  const settle = () => {
    for (let i = waiting.length - 1; i >= 0; i--)
      if (waiting[i].seq <= answered) {
        waiting[i].resolve();
        waiting.splice(i, 1);
      }
  };

  /** The thread is gone while running: the main thread drains again (its seam removed). */
  const fallBack = (why: string) => {
    if (services.probeInboxDrainer !== drainer) return;
    delete services.probeInboxDrainer;
    worker = null;
    const answerAll = () => {
      answered = sent;
      settle();
    };
    if (stopping) return answerAll();
    opts.log(`probe drain thread ${why}; the main thread stores the probes' results until a restart`);
    kickInbox(services);
    void inboxDrained(services).then(answerAll);
  };

  const start = () => {
    const data: DrainThreadData = { config: services.config };
    // the thread's name in `top -H` and /proc/PID/task/TID/comm
    const w = new Worker(new URL('./probe-drain-thread.ts', import.meta.url), { workerData: data, name: 'probe-drain' });
    w.on('message', (m: FromDrainThread) => {
      if (m.type === 'counted') countProbeChecksHere(m.label, m.counts);
      else if (m.type === 'deliveries') deliveriesWrittenElsewhere();
      else if (m.type === 'drained') {
        answered = Math.max(answered, m.seq);
        settle();
      } else if (m.type === 'failed') fallBack(`could not start (${m.error})`);
    });
    w.on('error', (e) => fallBack(`failed (${e.message})`));
    w.on('exit', (code) => fallBack(`ended (code ${code})`));
    // Shutdown: after the ingest thread (no more kicks).
    (services.onShutdown ??= []).push(stop);
    return w;
  };

  /** No more kicks; the row under way commits, the rest stays in the inbox; the thread ends. */
  const stop = async () => {
    stopping = true;
    const w = worker;
    if (!w) return; // never started, or ended before
    const exited = new Promise((r) => w.once('exit', r));
    w.postMessage({ type: 'stop' } satisfies ToDrainThread);
    await exited;
  };

  const drainer: ProbeInboxDrainer = {
    kick() {
      if (stopping) return; // what lands stays in the inbox (durable): the sweep stores it after a restart
      worker ??= start();
      post({ type: 'kick', seq: ++sent });
    },
    drained() {
      if (answered >= sent) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ seq: sent, resolve }));
    },
  };
  services.probeInboxDrainer = drainer;
  return { worker: () => worker, stop };
}
