// Checkpoints of the SQLite WAL in a worker thread. SQLite's automatic checkpoint runs inside the
// COMMIT that crosses wal_autocheckpoint pages: on the one writer connection, i.e. on the event
// loop, it copies ~4 MB into the database file and fsyncs it. At hundreds of check results a
// second that blocked every few batches for tens of ms (scheduling lag). The thread checkpoints
// every `everyMs`; the writer's own automatic checkpoint stays as a backstop at a higher mark.
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';

/** Pages of WAL after which the writer checkpoints by itself (the thread stopped or fell behind) */
export const BACKSTOP_PAGES = 20_000;

export function startCheckpointer(raw: DatabaseSync, file: string, everyMs = 200): { stop(): Promise<void> } {
  raw.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES};`);
  const worker = new Worker(new URL('./sqlite-checkpoint-worker.ts', import.meta.url), { workerData: { file, everyMs } });
  worker.unref();
  worker.on('error', () => raw.exec('PRAGMA wal_autocheckpoint = 1000;')); // back to SQLite's own
  return {
    async stop() {
      // Held while it stops: an unref'd worker keeps nothing alive, and a process with nothing
      // else to do (a CLI closing its database before process.exit(code)) would end here, code 0.
      worker.ref();
      const exited = new Promise((r) => worker.once('exit', r));
      worker.postMessage('stop');
      await exited;
    },
  };
}
