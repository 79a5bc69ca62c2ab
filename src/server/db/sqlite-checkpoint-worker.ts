// The SQLite checkpointer thread (sqlite-checkpointer.ts): copies committed WAL frames into the
// database file, with its fsync, off the event loop. PASSIVE never blocks the writer or readers.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = new DatabaseSync(file);
db.exec('PRAGMA busy_timeout = 1000;');
const timer = setInterval(() => {
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE);');
  } catch {
    // busy or I/O trouble: the next round retries, and the writer's own backstop still holds
  }
}, everyMs);
parentPort!.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
